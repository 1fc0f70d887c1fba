import { ADDRESS_TYPES } from '@shared/address';
import type { Contact, ContactInput } from '@shared/contracts/contact';
import { useMemo } from 'react';
import type { PageProps } from '../../lib/route-table';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useAllFields } from '../field/api';
import { useAllTags, useContact, useContactCalls } from './api';
import { contactFormFields } from './contact-config';
import { contactFormValues, contactPayload, validateContact } from './contact-form';
import { useDictionary } from '../../lib/dictionary';

/** /contact/create and /contact/update/:id: name, addresses, tags, note and the organisation's custom fields. */
export function ContactFormPage({ params }: PageProps) {
  const id = params.id ? Number(params.id) : null;
  const calls = useContactCalls();
  const contact = useContact(id);
  const { fields, error: fieldsError, isLoading: fieldsLoading } = useAllFields();
  const { tags } = useAllTags();
  const addressTypes = useDictionary('address-types', ADDRESS_TYPES);
  const formFields = useMemo(() => contactFormFields(tags, fields, addressTypes), [tags, fields, addressTypes]);
  const item = contact.data?.data ?? null;

  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  const error = (id ? contact.error : null) ?? fieldsError;
  const body = (
    <LoadState error={error} loading={Boolean(id && (contact.isLoading || !item)) || fieldsLoading}>
      {() => (
        <EntityForm<Contact, ContactInput>
          key={`${item?.id ?? 'new'}:${fields.map((field) => field.id).join(',')}`}
          item={item}
          fields={formFields}
          calls={calls}
          initial={(current) => contactFormValues(current, fields)}
          validate={validateContact}
          toInput={(values) => contactPayload(values, fields)}
          width={760}
          listRoute="contact_list"
          titleKey={id ? 'contacts.editTitle' : 'contacts.createTitle'}
          itemLabel={(saved) => saved.name}
          onSaved={(saved) => void contact.mutate({ data: saved }, { revalidate: false })}
        />
      )}
    </LoadState>
  );
  return (
    <>
      <PageBreadcrumbs section="contacts" current={crumb} />
      {body}
    </>
  );
}
