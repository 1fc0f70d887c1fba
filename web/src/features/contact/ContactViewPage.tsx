import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSWRConfig } from 'swr';
import { Link } from 'wouter';
import { DateTime } from '../../components/common/DateTime';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { pathOf, type PageProps } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { ContactOptOutsPanel } from '../engagement/ContactOptOutsPanel';
import { ContactSuppressionsPanel } from '../engagement/ContactSuppressionsPanel';
import { useAllFields } from '../field/api';
import { useContact } from './api';
import { contactMembershipsPath } from './memberships-api';
import { ContactMemberships } from './ContactMemberships';
import { ContactMessages } from './ContactMessages';
import { ContactProfile } from './ContactProfile';
import { ContactPersonalData } from './privacy/ContactPersonalData';

/**
 * /contact/view/:id, where a row of the contact list leads: the contact read-only (addresses, fields, tags), its
 * subscriptions (standing, switch, consent) and opt-outs, its suppressed addresses with Lift ("Bounces and complaints"), its latest messages
 * and engagement, and the person's data requests (export, erasure). Editing is the Edit button away.
 */
export function ContactViewPage({ params }: PageProps) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const contact = useContact(valid ? id : null);
  const { fields, error: fieldsError } = useAllFields();
  const { mutate } = useSWRConfig();
  const item = contact.data?.data ?? null;
  const editHref = pathOf(table, 'contact_update', { id });
  const listHref = pathOf(table, 'contact_list') ?? '/contact';
  return (
    <>
      <PageBreadcrumbs section="contacts" current={{ labelKey: 'contacts.view.crumb', text: item?.name }} />
      <LoadState error={valid ? (contact.error ?? fieldsError) : new Error('not found')} loading={!item}>
        {() => (
          <Stack maw={1100} data-testid="contact-view">
            <Group justify="space-between" align="flex-start" wrap="wrap">
              <div style={{ minWidth: 0 }}>
                <Title order={3} style={{ wordBreak: 'break-word' }} data-testid="contact-view-name">
                  {item!.name}
                </Title>
                <Text size="xs" c="dimmed">
                  {t('contacts.view.since')} <DateTime value={item!.created_at} />
                </Text>
              </div>
              {editHref && (
                <Link href={editHref} asChild>
                  <Button component="a" href={editHref} leftSection={<IconPencil size={16} />} data-testid="contact-edit">
                    {t('common.edit')}
                  </Button>
                </Link>
              )}
            </Group>
            <ContactProfile contact={item!} fields={fields} />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <ContactMemberships contactId={id} />
              <ContactSuppressionsPanel contactId={id} />
            </SimpleGrid>
            <ContactOptOutsPanel contactId={id} onResubscribed={() => void mutate(contactMembershipsPath(id))} />
            <ContactMessages contactId={id} />
            <ContactPersonalData contact={item!} listHref={listHref} />
          </Stack>
        )}
      </LoadState>
    </>
  );
}
