import { Alert, Center, Loader } from '@mantine/core';
import { FIELD_TYPES, type Field, type FieldInput, type FieldUpdateInput } from '@shared/contracts/field';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/route-table';
import { EntityForm } from '../../components/form/EntityForm';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { translateApiError } from '../../lib/server-messages';
import { useDictionary } from '../contacts/dictionary';
import { AUDIENCE_MESSAGE_KEYS } from '../contacts/messages';
import { useField, useFieldCalls } from './api';
import { fieldFormFields, validateField } from './field-config';
import { fieldFormValues, fieldPayload } from './field-form';

/** /field/create and /field/update/:id: name, alias, type (create only) and the options editor for select types. */
export function FieldFormPage({ params }: PageProps) {
  const { t } = useTranslation();
  const id = params.id ? Number(params.id) : null;
  const mode = id ? 'update' : 'create';
  const calls = useFieldCalls();
  const { data, error, isLoading, mutate } = useField(id);
  const types = useDictionary('field-types', FIELD_TYPES);
  const fields = useMemo(() => fieldFormFields(mode, types), [mode, types]);
  const item = data?.data ?? null;

  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  let body;
  if (id && error) body = <Alert color="red">{translateApiError(t, error)}</Alert>;
  else if (id && (isLoading || !item))
    body = (
      <Center p="xl">
        <Loader />
      </Center>
    );
  else
    body = (
      <EntityForm<Field, FieldInput | FieldUpdateInput>
        key={item?.id ?? 'new'}
        item={item}
        fields={fields}
        calls={calls}
        initial={fieldFormValues}
        validate={(values) => validateField(values, mode)}
        toInput={(values) => fieldPayload(values, mode)}
        messageKeys={AUDIENCE_MESSAGE_KEYS}
        listRoute="field_list"
        titleKey={id ? 'fields.editTitle' : 'fields.createTitle'}
        itemLabel={(field) => field.name}
        onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
      />
    );
  return (
    <>
      <PageBreadcrumbs section="fields" current={crumb} />
      {body}
    </>
  );
}
