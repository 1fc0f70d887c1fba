import { Button, Group, MultiSelect, NumberInput, Select, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllFields } from '../field/api';
import { useAllTags } from './api';
import { attributeFilterChoices, CONTACT_FILTER_DEFAULTS } from './contact-filters';

const TYPING_DEBOUNCE_MS = 350;

/** A text filter that reports its value only after typing pauses, like the list's search. */
function DebouncedText({
  value,
  onChange,
  ...props
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
  testId: string;
  type?: 'number';
}) {
  const [text, setText] = useState(value);
  const report = useDebouncedCallback(onChange, TYPING_DEBOUNCE_MS);
  const change = (next: string) => {
    setText(next);
    report(next);
  };
  if (props.type === 'number')
    return (
      <NumberInput
        label={props.label}
        placeholder={props.placeholder}
        data-testid={props.testId}
        w={160}
        value={text === '' ? '' : Number(text)}
        onChange={(next) => change(next === '' ? '' : String(next))}
      />
    );
  return (
    <TextInput
      label={props.label}
      placeholder={props.placeholder}
      data-testid={props.testId}
      w={220}
      value={text}
      onChange={(event) => change(event.currentTarget.value)}
    />
  );
}

/** Contact list filters (spec 5 contact filter keys): tags, address, and one custom-field value. */
export function ContactFilters({ values, onChange }: { values: Record<string, unknown>; onChange: (patch: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const { tags } = useAllTags();
  const { fields } = useAllFields();
  const fieldId = String(values.attributeField ?? '');
  const field = fields.find((candidate) => String(candidate.id) === fieldId);
  const choices = attributeFilterChoices(field);
  const attributeValue = String(values.attributeValue ?? '');
  const active = Boolean((Array.isArray(values.tags) && values.tags.length) || values.address || fieldId);
  // Remounting the text inputs on "clear" resets their own typed text too.
  const [generation, setGeneration] = useState(0);
  const clear = () => {
    onChange({ ...CONTACT_FILTER_DEFAULTS });
    setGeneration((n) => n + 1);
  };

  return (
    <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
      <MultiSelect
        label={t('contacts.filters.tags')}
        placeholder={t('contacts.filters.anyTag')}
        data-testid="filter-tags"
        w={260}
        searchable
        clearable
        data={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
        value={Array.isArray(values.tags) ? (values.tags as string[]) : []}
        onChange={(next) => onChange({ tags: next })}
        comboboxProps={{ withinPortal: true }}
      />
      <DebouncedText
        key={`address-${generation}`}
        label={t('contacts.filters.address')}
        placeholder={t('contacts.filters.addressPlaceholder')}
        testId="filter-address"
        value={String(values.address ?? '')}
        onChange={(address) => onChange({ address })}
      />
      <Select
        label={t('contacts.filters.field')}
        placeholder={t('contacts.filters.anyField')}
        data-testid="filter-attribute-field"
        w={200}
        clearable
        data={fields.map((candidate) => ({ value: String(candidate.id), label: candidate.name }))}
        value={fieldId || null}
        onChange={(next) => onChange({ attributeField: next ?? '', attributeValue: '' })}
        comboboxProps={{ withinPortal: true }}
      />
      {field &&
        (choices ? (
          <Select
            key={field.id}
            label={t('contacts.filters.value')}
            data-testid="filter-attribute-value"
            w={200}
            clearable
            data={choices.map((choice) => ({ value: choice.value, label: choice.label ?? t(choice.labelKey ?? '') }))}
            value={attributeValue || null}
            onChange={(next) => onChange({ attributeValue: next ?? '' })}
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <DebouncedText
            key={`${field.id}-${generation}`}
            label={t('contacts.filters.value')}
            testId="filter-attribute-value"
            type={field.type === 'number' ? 'number' : undefined}
            value={attributeValue}
            onChange={(next) => onChange({ attributeValue: next })}
          />
        ))}
      {active && (
        <Button variant="subtle" onClick={clear} data-testid="filters-clear">
          {t('contacts.filters.clear')}
        </Button>
      )}
    </Group>
  );
}
