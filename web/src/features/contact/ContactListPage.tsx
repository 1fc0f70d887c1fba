import { Button, Menu } from '@mantine/core';
import type { Contact } from '@shared/contracts/contact';
import { IconChevronDown, IconFileImport } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { ListScreen, type ListFilters } from '../../components/list/ListScreen';
import { useContactCalls, useContactList } from './api';
import { CONTACT_COLUMNS } from './contact-config';
import { CONTACT_FILTER_DEFAULTS, contactFilterQuery } from './contact-filters';
import { ContactFilters } from './ContactFilters';

const FILTERS: ListFilters = {
  defaults: { ...CONTACT_FILTER_DEFAULTS },
  toQuery: contactFilterQuery,
  render: (values, onChange) => <ContactFilters values={values} onChange={onChange} />,
};

/** Links next to the title: the import wizard, and the audience pages outside the main navigation. */
function ContactActions() {
  const { t } = useTranslation();
  const table = useRouteTable();
  const importHref = pathOf(table, 'contact_import');
  const more = [
    { route: 'subscription_list', labelKey: 'subscriptions.title', testId: 'link-subscriptions' },
    { route: 'activity_log', labelKey: 'activityLog.title', testId: 'link-activity-log' },
  ].flatMap((link) => {
    const href = pathOf(table, link.route);
    return href ? [{ ...link, href }] : [];
  });
  return (
    <>
      {importHref && (
        <Link href={importHref} asChild>
          <Button component="a" href={importHref} variant="light" leftSection={<IconFileImport size={16} />} data-testid="contact-import-link">
            {t('imports.title')}
          </Button>
        </Link>
      )}
      {more.length > 0 && (
        <Menu position="bottom-end">
          <Menu.Target>
            <Button variant="default" rightSection={<IconChevronDown size={14} />} data-testid="contact-more">
              {t('contacts.more')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {more.map((link) => (
              <Link key={link.route} href={link.href} asChild>
                <Menu.Item component="a" href={link.href} data-testid={link.testId}>
                  {t(link.labelKey)}
                </Menu.Item>
              </Link>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
    </>
  );
}

/** /contact: server-paged contacts with search (name, note, addresses), tag, address and custom-field filters; a row opens the contact. */
export function ContactListPage() {
  const calls = useContactCalls();
  return (
    <ListScreen<Contact>
      listKey="contact"
      section="contacts"
      titleKey="contacts.title"
      columns={CONTACT_COLUMNS}
      defaultSort={{ key: 'created_at', order: 'desc' }}
      createRoute="contact_create"
      updateRoute="contact_update"
      viewRoute="contact_view"
      calls={calls}
      useList={useContactList}
      filters={FILTERS}
      actions={<ContactActions />}
      itemLabel={(contact) => contact.name}
    />
  );
}
