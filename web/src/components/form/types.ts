/** Kinds of input the generic form renders. */
export type FormFieldKind = 'text' | 'textarea' | 'number' | 'switch' | 'email';

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
}

export type FormValues = Record<string, unknown>;

/** Initial values: the item's values for the configured fields, or empty defaults for a new item. */
export function initialValues(fields: FormFieldConfig[], item?: Record<string, unknown> | null): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const value = item?.[field.name];
    if (value !== undefined && value !== null) values[field.name] = value;
    else values[field.name] = field.kind === 'switch' ? false : field.kind === 'number' ? null : '';
  }
  return values;
}
