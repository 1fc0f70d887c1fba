import { Input, MultiSelect, NumberInput, Select, Stack, Switch, TextInput } from '@mantine/core';
import type { Field } from '@shared/contracts/field';
import { useTranslation } from 'react-i18next';
import type { CustomFieldProps } from '../../components/form/types';
import type { AttributeDraft } from './contact-form';
import { fieldErrorText } from '../../lib/field-errors';

/** The input of one custom field by its type: number, text, select (one option), multiselect (options), boolean switch. */
function AttributeInput({
  field,
  value,
  onChange,
  error,
}: {
  field: Field;
  value: AttributeDraft | undefined;
  onChange: (value: AttributeDraft) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const common = { label: field.name, error, 'data-testid': `attribute-${field.alias}`, name: `attribute-${field.alias}` };
  const options = field.options.map((option) => ({ value: String(option.id), label: option.value }));
  switch (field.type) {
    case 'number':
      return <NumberInput {...common} value={typeof value === 'number' ? value : ''} onChange={(next) => onChange(next === '' ? null : Number(next))} />;
    case 'text':
      return (
        <TextInput {...common} maxLength={2000} value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.currentTarget.value)} />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={options}
          clearable
          placeholder={t('contacts.chooseOption')}
          value={typeof value === 'string' && value ? value : null}
          onChange={(next) => onChange(next ?? null)}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'multiselect':
      return (
        <MultiSelect
          {...common}
          data={options}
          searchable
          clearable
          placeholder={t('contacts.chooseOptions')}
          value={Array.isArray(value) ? value : []}
          onChange={(next) => onChange(next)}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'boolean':
      return (
        <Switch
          label={field.name}
          error={error}
          data-testid={common['data-testid']}
          name={common.name}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
  }
}

/**
 * One input per custom field of the organisation, in field order. The payload sends every field in that
 * order, so a server message on attributes.<i>.value belongs to the i-th field.
 */
export function AttributesEditor({ value, onChange, errors, fields }: CustomFieldProps & { fields: Field[] }) {
  const { t } = useTranslation();
  const drafts = (value ?? {}) as Record<string, AttributeDraft>;
  if (fields.length === 0) return null;
  return (
    <Input.Wrapper label={t('contacts.fields.attributes')} error={fieldErrorText(t, errors.attributes)} data-testid="form-field-attributes">
      <Stack gap="sm" mt="xs">
        {fields.map((field, index) => {
          const paths = [`attributes.${index}.value`, `attributes.${index}.field_id`, `attributes.${index}`];
          const error = paths.map((path) => fieldErrorText(t, errors[path])).find(Boolean);
          return (
            <AttributeInput
              key={field.id}
              field={field}
              value={drafts[String(field.id)]}
              error={error}
              onChange={(next) => onChange({ ...drafts, [String(field.id)]: next }, paths)}
            />
          );
        })}
      </Stack>
    </Input.Wrapper>
  );
}
