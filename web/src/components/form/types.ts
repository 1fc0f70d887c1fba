import type { ReactNode } from 'react';

/** Kinds of input the generic form renders ('custom' draws itself through `render`). */
export type FormFieldKind = 'text' | 'textarea' | 'number' | 'switch' | 'email' | 'select' | 'multiselect' | 'custom';

/** One choice of a select or multiselect: the value sent, and a locale key or literal text to show. */
export interface FormChoice {
  value: string;
  labelKey?: string;
  label?: string;
}

/** What a custom field's renderer gets: its value, a change callback and the messages of its own path and sub-paths. */
export interface CustomFieldProps {
  value: unknown;
  /** Changes the value; `paths` are the nested error paths (e.g. 'addresses.1.value') to clear. */
  onChange: (value: unknown, paths?: string[]) => void;
  /** Messages keyed by full path: the field's own name and any 'name.<sub path>'. */
  errors: Record<string, string[]>;
  values: FormValues;
  disabled?: boolean;
}

/** One form field: API name, label (locale key), kind, required marker, optional hint and length limit. */
export interface FormFieldConfig {
  name: string;
  labelKey: string;
  kind?: FormFieldKind;
  required?: boolean;
  descriptionKey?: string;
  placeholderKey?: string;
  maxLength?: number;
  autoFocus?: boolean;
  /** Choices of a select or multiselect (a select holds one value string, a multiselect a list of them). */
  choices?: FormChoice[];
  /** Choices that depend on the other values (e.g. only the integrations of the chosen sender type); wins over `choices`. */
  choicesFor?: (values: FormValues) => FormChoice[];
  /** Shown but not editable (e.g. a type chosen only on create). */
  disabled?: boolean;
  /** Shown only while this returns true (e.g. options only for select types). */
  visible?: (values: FormValues) => boolean;
  /** The input of a 'custom' field. */
  render?: (props: CustomFieldProps) => ReactNode;
}

export type FormValues = Record<string, unknown>;

/** Initial values: the item's values for the configured fields, or empty defaults for a new item. */
export function initialValues(fields: FormFieldConfig[], item?: Record<string, unknown> | null): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = item?.[field.name];
    if (value !== undefined && value !== null) values[field.name] = value;
    else values[field.name] = emptyValue(field.kind);
  }
  return values;
}

/** The empty value of a field kind. */
export function emptyValue(kind: FormFieldKind | undefined): unknown {
  if (kind === 'switch') return false;
  if (kind === 'number' || kind === 'custom') return null;
  if (kind === 'multiselect') return [];
  return '';
}

/** The messages that belong to one field: its own name and its nested paths ('addresses.1.value'). */
export function errorsOfField(errors: Record<string, string[]>, name: string): Record<string, string[]> {
  const own: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(errors)) if (path === name || path.startsWith(`${name}.`)) own[path] = messages;
  return own;
}
