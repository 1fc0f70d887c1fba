import { FIELD_TYPES, type Field, type FieldInput, type FieldUpdateInput } from '@shared/contracts/field';
import { useMemo } from 'react';
import type { PageProps } from '../../lib/route-table';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useDictionary } from '../../lib/dictionary';
import { useField, useFieldCalls } from './api';
import { fieldFormFields, validateField } from './field-config';
import { fieldFormValues, fieldPayload } from './field-form';

/** /field/create and /field/update/:id: name, alias, type (create only) and the options editor for select types. */
export function FieldFormPage({ params }: PageProps) {
  const id = params.id ? Number(params.id) : null;
  const mode = id ? 'update' : 'create';
  const calls = useFieldCalls();
  const { data, error, isLoading, mutate } = useField(id);
  const types = useDictionary('field-types', FIELD_TYPES);
  const fields = useMemo(() => fieldFormFields(mode, types), [mode, types]);
  const item = data?.data ?? null;

  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  const body = (
    <LoadState error={id ? error : null} loading={Boolean(id && (isLoading || !item))}>
      {() => (
        <EntityForm<Field, FieldInput | FieldUpdateInput>
          key={item?.id ?? 'new'}
          item={item}
          fields={fields}
          calls={calls}
          initial={fieldFormValues}
          validate={(values) => validateField(values, mode)}
          toInput={(values) => fieldPayload(values, mode)}
          listRoute="field_list"
          titleKey={id ? 'fields.editTitle' : 'fields.createTitle'}
          itemLabel={(field) => field.name}
          onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
        />
      )}
    </LoadState>
  );
  return (
    <>
      <PageBreadcrumbs section="fields" current={crumb} />
      {body}
    </>
  );
}
