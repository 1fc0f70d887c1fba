import type { Field } from '@shared/contracts/field';

/** The contact list's extra filters as saved with the list preferences. */
export interface ContactFilterValues {
  /** Tag ids (as text, the multi-select's values). */
  tags: string[];
  /** Text an address must contain. */
  address: string;
  /** One custom-field filter: the field id (as text) and the value to match. */
  attributeField: string;
  attributeValue: string;
}

export const CONTACT_FILTER_DEFAULTS: ContactFilterValues = { tags: [], address: '', attributeField: '', attributeValue: '' };

/**
 * The list query of the filters (src/shared/contracts/contact.ts): `tags` as repeated ids, `address`, and
 * `attributes=<field_id>:<value>` (select options by id, booleans as true/false). An unfinished attribute
 * filter (no field or no value) is left out.
 */
export function contactFilterQuery(values: Record<string, unknown>): Record<string, unknown> {
  const tags = Array.isArray(values.tags) ? values.tags.map(Number).filter((id) => Number.isInteger(id) && id > 0) : [];
  const address = typeof values.address === 'string' ? values.address.trim() : '';
  const field = typeof values.attributeField === 'string' ? values.attributeField : '';
  const value = typeof values.attributeValue === 'string' ? values.attributeValue.trim() : '';
  return {
    tags,
    address,
    attributes: field && value ? [`${field}:${value}`] : [],
  };
}

/** The choices of an attribute filter's value for a field: options by id, yes/no for booleans, none (free text) otherwise. */
export function attributeFilterChoices(field: Pick<Field, 'type' | 'options'> | undefined): { value: string; label?: string; labelKey?: string }[] | null {
  if (!field) return null;
  if (field.type === 'boolean')
    return [
      { value: 'true', labelKey: 'audience.yes' },
      { value: 'false', labelKey: 'audience.no' },
    ];
  if (field.type === 'select' || field.type === 'multiselect') return field.options.map((option) => ({ value: String(option.id), label: option.value }));
  return null;
}
