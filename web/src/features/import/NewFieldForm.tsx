import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { FIELD_TYPES, type Field, type FieldType } from '@shared/contracts/field';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-error';
import { freeAlias } from '../../lib/field-alias';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { useFieldCalls } from '../field/api';
import { normalizeHeader } from './mapping';

/** The problems of a new field's name before it is sent: empty, or the name of a field that exists (map to that one). */
export function newFieldNameProblem(name: string, fields: Pick<Field, 'name'>[]): 'required' | 'taken' | null {
  if (!name.trim()) return 'required';
  const key = normalizeHeader(name);
  return fields.some((field) => field.name.trim().toLowerCase() === name.trim().toLowerCase() || (key && normalizeHeader(field.name) === key)) ? 'taken' : null;
}

/**
 * "Create field from this column" in the mapping step: a name (the column's header to start with) and a type; the
 * field is made at once through the fields API (POST /field, with an alias no field has), so a problem shows here
 * beside the column, and the column is then mapped to the new field.
 */
export function NewFieldForm({ column, header, fields, onCreated }: { column: number; header: string; fields: Field[]; onCreated: (field: Field) => void }) {
  const { t } = useTranslation();
  const calls = useFieldCalls();
  const [name, setName] = useState(header);
  const [type, setType] = useState<FieldType>('text');
  const [errors, setErrors] = useState<{ name?: string; type?: string; general?: string }>({});
  const [busy, setBusy] = useState(false);

  const create = async () => {
    const problem = newFieldNameProblem(name, fields);
    if (problem) {
      setErrors({ name: t(problem === 'required' ? 'server.required' : 'imports.newField.nameTaken') });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const field = await calls.create({
        name: name.trim(),
        alias: freeAlias(
          name,
          fields.map((f) => f.alias),
        ),
        type,
      });
      onCreated(field);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length) {
        const text = (path: string) => error.fields[path]?.map((message) => translateServerMessage(t, message)).join(' ');
        // The alias is made from the name here, so its problems (already taken) are the name's.
        const nameText = [text('name'), text('alias')].filter(Boolean).join(' ');
        setErrors({ name: nameText || undefined, type: text('type'), general: nameText || text('type') ? undefined : translateApiError(t, error) });
      } else setErrors({ general: translateApiError(t, error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" mt="xs" data-testid="new-field-form" data-column={column}>
      <Text size="xs" c="dimmed">
        {t('imports.newField.hint')}
      </Text>
      <Group align="flex-start" gap="xs" grow preventGrowOverflow={false}>
        <TextInput
          label={t('imports.newField.name')}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={errors.name}
          maxLength={100}
          data-testid="new-field-name"
        />
        <NativeSelect
          label={t('imports.newField.type')}
          value={type}
          data={FIELD_TYPES.map((value) => ({ value, label: t(`fields.types.${value}`) }))}
          onChange={(event) => setType(event.currentTarget.value as FieldType)}
          error={errors.type}
          data-testid="new-field-type"
        />
      </Group>
      {errors.general && (
        <Alert color="red" p="xs" data-testid="new-field-error">
          {errors.general}
        </Alert>
      )}
      <Group>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} loading={busy} onClick={() => void create()} data-testid="new-field-create">
          {t('imports.newField.create')}
        </Button>
      </Group>
    </Stack>
  );
}
