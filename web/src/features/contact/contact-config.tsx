import { Badge, Group, Text } from '@mantine/core';
import type { Contact } from '@shared/contracts/contact';
import type { Field } from '@shared/contracts/field';
import type { Tag } from '@shared/contracts/tag';
import { LANGUAGE_NAMES, LANGUAGES } from '@shared/languages';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import type { FormFieldConfig } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { AddressesEditor } from './AddressesEditor';
import { AttributesEditor } from './AttributesEditor';

/** A contact row shows up to this many addresses (spec 2), then "+N". */
export const SHOWN_ADDRESSES = 2;

/** The addresses a row shows and how many more there are. */
export function visibleAddresses(contact: Pick<Contact, 'addresses'>): { shown: Contact['addresses']; more: number } {
  return { shown: contact.addresses.slice(0, SHOWN_ADDRESSES), more: Math.max(0, contact.addresses.length - SHOWN_ADDRESSES) };
}

function AddressesCell({ contact }: { contact: Contact }) {
  const { t } = useTranslation();
  const { shown, more } = visibleAddresses(contact);
  const hidden = contact.addresses.slice(SHOWN_ADDRESSES);
  const isBlacklisted = (address: { id: number }) => contact.blacklisted_addresses?.includes(address.id) ?? false;
  return (
    <Group gap={6} wrap="wrap">
      {shown.map((address) => (
        <Group key={address.id} gap={4} wrap="nowrap">
          <Text
            size="sm"
            data-address-type={address.type}
            td={isBlacklisted(address) ? 'line-through' : undefined}
            c={isBlacklisted(address) ? 'dimmed' : undefined}
          >
            {address.value}
          </Text>
          {isBlacklisted(address) && (
            <Badge color="red" variant="light" size="xs" tt="none" data-testid="address-blacklisted" title={t('contacts.blacklistedHint')}>
              {t('contacts.blacklisted')}
            </Badge>
          )}
        </Group>
      ))}
      {hidden.some(isBlacklisted) && (
        <Badge color="red" variant="light" size="xs" tt="none" data-testid="address-blacklisted" title={t('contacts.blacklistedHint')}>
          {t('contacts.blacklisted')}
        </Badge>
      )}
      {more > 0 && (
        <Badge
          variant="outline"
          color="gray"
          size="sm"
          data-testid="addresses-more"
          title={contact.addresses
            .slice(SHOWN_ADDRESSES)
            .map((a) => a.value)
            .join(', ')}
        >
          {`+${more}`}
        </Badge>
      )}
    </Group>
  );
}

/** A contact's tags as chips: the list's column and the contact page show them alike. */
export function TagChips({ contact }: { contact: Contact }) {
  return (
    <Group gap={4}>
      {contact.tags.map((tag) => (
        <Badge key={tag.id} variant="light" tt="none" data-testid="tag-chip">
          {tag.name}
        </Badge>
      ))}
    </Group>
  );
}

/** Contact list columns: name, up to two addresses, tag chips, times and id. */
export const CONTACT_COLUMNS: ListColumn<Contact>[] = [
  { key: 'name', labelKey: 'contacts.fields.name', sortable: true },
  { key: 'addresses', labelKey: 'contacts.fields.addresses', render: (row) => <AddressesCell contact={row} /> },
  { key: 'tags', labelKey: 'contacts.fields.tags', render: (row) => <TagChips contact={row} /> },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'updated_at', labelKey: 'list.columns.updated_at', sortable: true, render: (row) => <DateTime value={row.updated_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** The contact form (spec 5): name (required), language, note, addresses, tags, and one input per custom field. */
export function contactFormFields(tags: Tag[], fields: Field[], addressTypes: readonly string[]): FormFieldConfig[] {
  return [
    { name: 'name', labelKey: 'contacts.fields.name', required: true, maxLength: 200, autoFocus: true },
    {
      name: 'addresses',
      labelKey: 'contacts.fields.addresses',
      kind: 'custom',
      required: true,
      render: (props) => <AddressesEditor {...props} types={addressTypes} />,
    },
    { name: 'tags', labelKey: 'contacts.fields.tags', kind: 'multiselect', choices: tags.map((tag) => ({ value: String(tag.id), label: tag.name })) },
    {
      name: 'language',
      labelKey: 'contacts.fields.language',
      kind: 'select',
      descriptionKey: 'contacts.fields.languageHint',
      // Each language named in itself, as the preferences page lists them.
      choices: LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] })),
    },
    { name: 'note', labelKey: 'contacts.fields.note', kind: 'textarea', maxLength: 5000 },
    { name: 'attributes', labelKey: 'contacts.fields.attributes', kind: 'custom', render: (props) => <AttributesEditor {...props} fields={fields} /> },
  ];
}
