import { NumberInput, Switch, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateServerMessage } from '../../lib/server-messages';
import type { FormFieldConfig } from './types';

/** One configured field as a Mantine input (data-testid form-field-<name>), with its server messages below it. */
export function FormField({ field, value, errors, onChange }: { field: FormFieldConfig; value: unknown; errors?: string[]; onChange: (value: unknown) => void }) {
  const { t } = useTranslation();
  const common = {
    label: t(field.labelKey),
    description: field.descriptionKey ? t(field.descriptionKey) : undefined,
    placeholder: field.placeholderKey ? t(field.placeholderKey) : undefined,
    withAsterisk: field.required,
    error: errors?.length ? errors.map((message) => translateServerMessage(t, message)).join(' ') : undefined,
    'data-testid': `form-field-${field.name}`,
    name: field.name,
  };
  switch (field.kind) {
    case 'textarea':
      return <Textarea {...common} autosize minRows={3} maxLength={field.maxLength} value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'number':
      return <NumberInput {...common} value={typeof value === 'number' ? value : ''} onChange={(next) => onChange(next === '' ? null : Number(next))} />;
    case 'switch':
      return <Switch label={common.label} description={common.description} error={common.error} data-testid={common['data-testid']} name={field.name} checked={Boolean(value)} onChange={(e) => onChange(e.currentTarget.checked)} />;
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
