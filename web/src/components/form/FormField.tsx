import { MultiSelect, NumberInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateServerMessage } from '../../lib/server-messages';
import type { FormFieldConfig, FormValues } from './types';

/** One configured field as a Mantine input (data-testid form-field-<name>), with its server messages below it. */
export function FormField({
  field,
  value,
  errors,
  onChange,
  nestedErrors,
  values,
}: {
  field: FormFieldConfig;
  value: unknown;
  errors?: string[];
  onChange: (value: unknown, paths?: string[]) => void;
  /** A custom field's messages by full path (its name and 'name.<sub path>'). */
  nestedErrors?: Record<string, string[]>;
  values?: FormValues;
}) {
  const { t } = useTranslation();
  const translate = (message: string) => translateServerMessage(t, message);
  const common = {
    label: t(field.labelKey),
    description: field.descriptionKey ? t(field.descriptionKey) : undefined,
    placeholder: field.placeholderKey ? t(field.placeholderKey) : undefined,
    withAsterisk: field.required,
    error: errors?.length ? errors.map(translate).join(' ') : undefined,
    'data-testid': `form-field-${field.name}`,
    name: field.name,
    disabled: field.disabled,
  };
  const choices = ((field.choicesFor && values ? field.choicesFor(values) : field.choices) ?? []).map((choice) => ({
    value: choice.value,
    label: choice.label ?? (choice.labelKey ? t(choice.labelKey) : choice.value),
  }));
  switch (field.kind) {
    case 'custom':
      return (
        <>
          {field.render?.({
            value,
            onChange,
            errors: nestedErrors ?? (errors ? { [field.name]: errors } : {}),
            values: values ?? {},
            disabled: field.disabled,
          })}
        </>
      );
    case 'select':
      return (
        <Select
          {...common}
          data={choices}
          value={value === null || value === undefined || value === '' ? null : String(value)}
          onChange={(next) => onChange(next ?? '')}
          allowDeselect={!field.required}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'multiselect':
      return (
        <MultiSelect
          {...common}
          data={choices}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={(next) => onChange(next)}
          searchable
          clearable
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'textarea':
      return (
        <Textarea {...common} autosize minRows={3} maxLength={field.maxLength} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} />
      );
    case 'number':
      return <NumberInput {...common} value={typeof value === 'number' ? value : ''} onChange={(next) => onChange(next === '' ? null : Number(next))} />;
    case 'switch':
      return (
        <Switch
          label={common.label}
          description={common.description}
          error={common.error}
          data-testid={common['data-testid']}
          name={field.name}
          disabled={field.disabled}
          checked={Boolean(value)}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          type={field.kind === 'email' ? 'email' : 'text'}
          maxLength={field.maxLength}
          autoFocus={field.autoFocus}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
  }
}
