import { ActionIcon, Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { moveItem, SortableList } from '../../components/form/SortableList';
import type { CustomFieldProps } from '../../components/form/types';
import { newOptionDraft, type OptionDraft } from './field-form';
import { fieldErrorText } from '../../lib/field-errors';

/** Options of a select or multiselect field: add, rename, remove and drag to reorder (errors on options.<i>.value). */
export function OptionsEditor({ value, onChange, errors }: CustomFieldProps) {
  const { t } = useTranslation();
  const options = Array.isArray(value) ? (value as OptionDraft[]) : [];
  // Paths of every option: an edit that moves or removes options clears all their messages (indexes shift).
  const allPaths = () => Object.keys(errors);
  const listError = fieldErrorText(t, errors.options);

  const rename = (index: number, text: string) =>
    onChange(
      options.map((option, i) => (i === index ? { ...option, value: text } : option)),
      [`options.${index}.value`],
    );
  const remove = (index: number) =>
    onChange(
      options.filter((_, i) => i !== index),
      allPaths(),
    );
  const add = () => onChange([...options, newOptionDraft()], ['options']);
  const move = (from: number, to: number) => onChange(moveItem(options, from, to), allPaths());

  return (
    <Input.Wrapper label={t('fields.fields.options')} description={t('fields.optionsHint')} error={listError} data-testid="form-field-options">
      <Stack gap="xs" mt="xs">
        {options.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('fields.noOptions')}
          </Text>
        )}
        <SortableList
          items={options}
          keyOf={(option) => option.key}
          onMove={move}
          dragLabel={t('list.drag')}
          testId="option-row"
          renderItem={(option, index) => (
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <TextInput
                style={{ flex: 1 }}
                aria-label={t('fields.optionLabel', { number: index + 1 })}
                placeholder={t('fields.optionPlaceholder')}
                data-testid="option-value"
                maxLength={200}
                value={option.value}
                error={fieldErrorText(t, errors[`options.${index}.value`])}
                onChange={(event) => rename(index, event.currentTarget.value)}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={4}
                aria-label={t('fields.removeOption')}
                title={t('fields.removeOption')}
                data-testid="option-remove"
                onClick={() => remove(index)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          )}
        />
        <Group>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={add} data-testid="option-add">
            {t('fields.addOption')}
          </Button>
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
