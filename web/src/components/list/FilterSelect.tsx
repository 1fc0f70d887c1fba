import { Group, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListFilters } from './ListScreen';

type Values = Record<string, unknown>;
type Patch = (patch: Values) => void;
type Option = { value: string; label: string };

/** One select of a list's filters: the query parameter it sets and where its choices come from. */
export interface SelectFilterSpec {
  /** The query parameter (and saved preference) it sets. */
  name: string;
  labelKey: string;
  /** Fixed choices, each labelled by the locale key `${optionsKey}.${value}` ... */
  values?: readonly string[];
  optionsKey?: string;
  /** ... or choices loaded from the API (a hook, called on every render of the select). */
  useOptions?: () => Option[];
  /** The select's data-testid when not `filter-<name>`. */
  testId?: string;
}

/** A filter's value as the query sends it: a fixed filter's unknown value (an old saved one) is dropped, not sent for a 422. */
function queryValue(spec: SelectFilterSpec, value: unknown): unknown {
  if (!value) return undefined;
  return spec.values && !spec.values.includes(String(value)) ? undefined : value;
}

const NO_OPTIONS = (): Option[] => [];

function FilterSelect({ spec, values, onChange }: { spec: SelectFilterSpec; values: Values; onChange: Patch }) {
  const { t } = useTranslation();
  const loaded = (spec.useOptions ?? NO_OPTIONS)();
  const data = spec.values ? spec.values.map((value) => ({ value, label: t(`${spec.optionsKey}.${value}`, { defaultValue: value }) })) : loaded;
  return (
    <Select
      w={220}
      clearable
      searchable={data.length > 8}
      label={t(spec.labelKey)}
      placeholder={t('list.any')}
      data-testid={spec.testId ?? `filter-${spec.name}`}
      data={data}
      value={String(queryValue(spec, values[spec.name]) ?? '') || null}
      onChange={(value) => onChange({ [spec.name]: value ?? '' })}
    />
  );
}

/**
 * A list's filters made of selects (spec 2: every list offers the filters its API has). Each starts empty
 * ("any"); only a chosen value reaches the query, and the values are saved with the list's other preferences.
 * Define the result once per list (module scope): its defaults are compared between renders.
 */
export function selectFilters(specs: readonly SelectFilterSpec[], defaults: Values = {}): ListFilters {
  const names = specs.map((spec) => spec.name);
  return {
    defaults: { ...Object.fromEntries(names.map((name) => [name, ''])), ...defaults },
    toQuery: (values) => Object.fromEntries(specs.map((spec) => [spec.name, queryValue(spec, values[spec.name])])),
    render: (values, onChange) => (
      <Group gap="sm" mb="md" wrap="wrap" align="flex-end">
        {specs.map((spec) => (
          <FilterSelect key={spec.name} spec={spec} values={values} onChange={onChange} />
        ))}
      </Group>
    ),
  };
}
