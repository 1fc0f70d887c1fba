import { ActionIcon, Button, Group, NativeSelect, Paper, Stack, Switch, Text } from '@mantine/core';
import type { Field } from '@shared/contracts/field';
import type { FormField } from '@shared/contracts/form';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CustomFieldProps } from '../../components/form/types';
import { translateServerMessage } from '../../lib/server-messages';
import { withEmailFirst } from './form-values';

/**
 * What the form asks: the email (fixed, always required), then the name, the phone and custom fields added here, each
 * with its required switch. Order is the order of adding (reordering is not offered).
 */
export function FieldsEditor({ value, onChange, errors, customFields }: CustomFieldProps & { customFields: Field[] }) {
  const { t } = useTranslation();
  const fields = withEmailFirst(Array.isArray(value) ? (value as FormField[]) : []);
  const has = (kind: FormField['kind'], alias?: string) => fields.some((f) => f.kind === kind && (kind !== 'custom' || f.alias === alias));
  const set = (next: FormField[]) => onChange(next, Object.keys(errors));
  const add = (field: FormField) => set([...fields, field]);
  const nameOf = (field: FormField) =>
    field.kind === 'custom' ? (customFields.find((f) => f.alias === field.alias)?.name ?? field.alias ?? '') : t(`forms.fieldKinds.${field.kind}`);
  const unused = customFields.filter((f) => !has('custom', f.alias));
  const messages = Object.values(errors).flat();

  return (
    <Stack gap={6} data-testid="form-field-fields">
      <Text size="sm" fw={500}>
        {t('forms.fields.fields')}
      </Text>
      {fields.map((field, index) => (
        <Paper key={`${field.kind}:${field.alias ?? ''}`} withBorder p={6} data-testid="field-row" data-kind={field.kind} data-alias={field.alias}>
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{nameOf(field)}</Text>
            <Group gap="sm" wrap="nowrap">
              <Switch
                size="xs"
                label={t('forms.required')}
                data-testid="field-required"
                checked={field.required}
                disabled={field.kind === 'email'}
                onChange={(e) => {
                  const required = e.currentTarget.checked;
                  set(fields.map((f, i) => (i === index ? { ...f, required } : f)));
                }}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('forms.removeField')}
                data-testid="field-remove"
                disabled={field.kind === 'email'}
                onClick={() => set(fields.filter((_, i) => i !== index))}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Group>
          </Group>
        </Paper>
      ))}
      <Group gap="xs">
        <Button size="xs" variant="light" data-testid="field-add-name" disabled={has('name')} onClick={() => add({ kind: 'name', required: false })}>
          {t('forms.addName')}
        </Button>
        <Button size="xs" variant="light" data-testid="field-add-phone" disabled={has('phone')} onClick={() => add({ kind: 'phone', required: false })}>
          {t('forms.addPhone')}
        </Button>
        {unused.length > 0 && (
          <NativeSelect
            size="xs"
            aria-label={t('forms.addCustom')}
            data-testid="field-add-custom"
            value=""
            data={[{ value: '', label: t('forms.addCustom') }, ...unused.map((f) => ({ value: f.alias, label: f.name }))]}
            onChange={(e) => {
              const alias = e.currentTarget.value;
              if (alias) add({ kind: 'custom', alias, required: false });
            }}
          />
        )}
      </Group>
      {messages.length > 0 && (
        <Text size="xs" c="red" data-testid="fields-error">
          {messages.map((m) => translateServerMessage(t, m)).join(' ')}
        </Text>
      )}
    </Stack>
  );
}
