import { hasOptions, type Field, type FieldInput, type FieldType, type FieldUpdateInput } from '@shared/contracts/field';
import type { FormValues } from '../../components/form/types';
import { aliasFromName } from '../../lib/field-alias';

// The alias rule lives in lib/ (the import wizard makes fields too); re-exported for the field form's callers.
export { aliasFromName };

/** An option as the form edits it: a stable key for React and dragging, the server id when it exists, the text. */
export interface OptionDraft {
  key: string;
  id?: number;
  value: string;
}

let draftCounter = 0;

/** A new, empty option with a key no other option has. */
export function newOptionDraft(value = ''): OptionDraft {
  draftCounter += 1;
  return { key: `new-${draftCounter}`, value };
}

/** The form's starting values: the field's (options become drafts), or an empty text field. */
export function fieldFormValues(field: Field | null): FormValues {
  if (!field) return { name: '', alias: '', type: 'text', options: [] };
  return {
    name: field.name,
    alias: field.alias,
    type: field.type,
    options: field.options.map((option): OptionDraft => ({ key: `id-${option.id}`, id: option.id, value: option.value })),
  };
}

/**
 * The request body of a field save (spec 5: options only for select and multiselect, otherwise dropped before
 * sending). The type is sent only on create: it is fixed afterwards. New options carry no id. An alias left empty
 * on create is derived from the name.
 */
export function fieldPayload(values: FormValues, mode: 'create' | 'update'): FieldInput | FieldUpdateInput {
  const type = String(values.type ?? '') as FieldType;
  const name = String(values.name ?? '');
  const alias = String(values.alias ?? '').trim();
  // On create an empty alias is derived from the name; on update it is sent as typed (the server requires one).
  const body: Record<string, unknown> = { name, alias: mode === 'create' && !alias ? aliasFromName(name) : alias };
  if (mode === 'create') body.type = type;
  if (hasOptions(type)) {
    const drafts = Array.isArray(values.options) ? (values.options as OptionDraft[]) : [];
    body.options = drafts.map((draft) => (mode === 'update' && draft.id ? { id: draft.id, value: draft.value } : { value: draft.value }));
  }
  return body as FieldInput | FieldUpdateInput;
}
