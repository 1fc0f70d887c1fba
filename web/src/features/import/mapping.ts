import { addressError, type AddressType } from '@shared/address';
import type { Field } from '@shared/contracts/field';
import { IMPORT_ADDRESS_TYPES, IMPORT_MESSAGES, IMPORT_REQUIRED_TARGETS, type ImportMappingEntry } from '@shared/contracts/import';

/**
 * One mapping row as the wizard edits it: a column (0 = first) and a target choice:
 * 'name' | 'note' | 'address:<type>' | 'tags' | 'field:<id>' | 'ignore', or 'new-field' while the user makes a
 * field from the column (it becomes 'field:<id>' once the field exists).
 */
export interface MappingDraft {
  key: string;
  column: number;
  choice: string;
}

/** A mapping problem: the English text (as the server words it) and the locale key plus values to show it. */
export interface MappingProblem {
  text: string;
  key: string;
  values?: Record<string, string>;
}

export interface MappingCheck {
  /** Problems of the whole mapping (address rule, required targets). */
  general: MappingProblem[];
  /** Problems of single rows, by row index. */
  rows: Record<number, MappingProblem>;
}

/** The choice of an address column of a type. */
export const addressChoice = (type: AddressType) => `address:${type}`;
/** The choice of a custom-field column. */
export const fieldChoice = (id: number) => `field:${id}`;
/** The choice "create a field from this column": the field is made in the mapping step, then chosen. */
export const NEW_FIELD_CHOICE = 'new-field';

/** The API entry of a row (src/shared/contracts/import.ts). */
export function entryOf(draft: Pick<MappingDraft, 'column' | 'choice'>): ImportMappingEntry {
  const [kind, detail] = draft.choice.split(':');
  const column = draft.column;
  if (kind === 'address') return { column, target: 'address', address_type: detail as AddressType };
  if (kind === 'field') return { column, target: 'field', field_id: Number(detail) };
  if (kind === 'name' || kind === 'note' || kind === 'tags') return { column, target: kind };
  return { column, target: 'ignore' };
}

/** The mapping sent to POST /import: every row in order (ignored ones too, so mapping.<i> names row i). */
export function mappingPayload(drafts: MappingDraft[]): ImportMappingEntry[] {
  return drafts.map(entryOf);
}

/** Header text reduced to letters and digits, lower-case, without accents: 'E-Mail ' -> 'email'. */
export function normalizeHeader(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Header names (normalised) that mean a target, in the console's languages. */
const HEADER_SYNONYMS: Record<string, string[]> = {
  name: ['name', 'fullname', 'contactname', 'contact', 'имя', 'фио', 'nombre', 'nom', 'nome', 'nume', 'numele', '姓名', '名字', '名称'],
  note: [
    'note',
    'notes',
    'comment',
    'comments',
    'remark',
    'remarks',
    'примечание',
    'заметка',
    'комментарий',
    'nota',
    'notas',
    'notiz',
    'notizen',
    'commentaire',
    'observacao',
    'observacoes',
    '备注',
  ],
  'address:email': [
    'email',
    'emails',
    'emailaddress',
    'mail',
    'correo',
    'correoelectronico',
    'courriel',
    'почта',
    'электроннаяпочта',
    'емейл',
    '邮箱',
    '电子邮件',
  ],
  'address:phone': [
    'phone',
    'phones',
    'phonenumber',
    'mobile',
    'mobilephone',
    'tel',
    'telephone',
    'cell',
    'cellphone',
    'sms',
    'телефон',
    'мобильный',
    'telefono',
    'telefon',
    'telemovel',
    'celular',
    '电话',
    '手机',
  ],
  tags: ['tags', 'tag', 'labels', 'label', 'теги', 'метки', 'etiquetas', 'etiquettes', 'etichete', '标签'],
};

/** The choice a header names: a custom field by name or alias first, then the synonyms; null when none. */
export function choiceFromHeader(header: string, fields: Pick<Field, 'id' | 'name' | 'alias'>[]): string | null {
  const key = normalizeHeader(header);
  if (!key) return null;
  const field = fields.find((candidate) => normalizeHeader(candidate.name) === key || normalizeHeader(candidate.alias) === key);
  if (field) return fieldChoice(field.id);
  for (const [choice, names] of Object.entries(HEADER_SYNONYMS)) if (names.includes(key)) return choice;
  return null;
}

/** An address choice when every non-empty sample value is a valid address of one type; else null. */
export function choiceFromValues(values: string[]): string | null {
  const filled = values.map((value) => value.trim()).filter(Boolean);
  if (!filled.length) return null;
  for (const type of IMPORT_ADDRESS_TYPES) if (filled.every((value) => addressError(type, value) === null)) return addressChoice(type);
  return null;
}

let draftCounter = 0;

/** A mapping row with a key no other row has. */
export function newMappingDraft(column: number, choice = 'ignore'): MappingDraft {
  draftCounter += 1;
  return { key: `m-${draftCounter}`, column, choice };
}

/**
 * One row per column, defaulted from the header names when they match (spec: "defaulting from header names"),
 * else from the sample values (a column of e-mails or phone numbers), else ignored. A target that can be
 * mapped once (name, note, a field) goes to the first column that names it.
 */
export function defaultMapping(headers: string[] | null, columns: number, fields: Pick<Field, 'id' | 'name' | 'alias'>[], samples: string[][]): MappingDraft[] {
  const taken = new Set<string>();
  const drafts: MappingDraft[] = [];
  for (let column = 0; column < columns; column++) {
    let choice = (headers && choiceFromHeader(headers[column] ?? '', fields)) || choiceFromValues(samples.map((row) => row[column] ?? '')) || 'ignore';
    const once = choice === 'name' || choice === 'note' || choice.startsWith('field:');
    if (once && taken.has(choice)) choice = 'ignore';
    taken.add(choice);
    drafts.push(newMappingDraft(column, choice));
  }
  return drafts;
}

/**
 * Checks a mapping before it is sent (the server checks the same): at least one e-mail or phone column (the
 * message names the address types), every required target (Field '{label}' is required), name, note and
 * each field mapped once, no row twice, no field that no longer exists, no field left half made.
 */
export function checkMapping(drafts: MappingDraft[], fields: Pick<Field, 'id'>[]): MappingCheck {
  const general: MappingProblem[] = [];
  const rows: Record<number, MappingProblem> = {};
  const entries = mappingPayload(drafts);
  if (!entries.some((entry) => entry.target === 'address')) {
    general.push({ text: IMPORT_MESSAGES.addressRequired, key: 'imports.messages.addressRequired' });
  }
  for (const required of IMPORT_REQUIRED_TARGETS) {
    if (!entries.some((entry) => entry.target === required.target)) {
      general.push({ text: IMPORT_MESSAGES.required(required.label), key: 'imports.messages.required', values: { target: required.target } });
    }
  }
  const known = new Set(fields.map((field) => field.id));
  const seen = new Set<string>();
  drafts.forEach((draft, index) => {
    const entry = entries[index];
    if (draft.choice === NEW_FIELD_CHOICE) {
      rows[index] = { text: 'Create the field or choose another target', key: 'imports.newField.pending' };
      return;
    }
    if (entry.target === 'field' && !known.has(entry.field_id)) rows[index] = { text: IMPORT_MESSAGES.unknownField, key: 'imports.messages.unknownField' };
    const once = entry.target === 'name' || entry.target === 'note' || entry.target === 'field';
    const key = once ? draft.choice : `${draft.column}:${draft.choice}`;
    if (seen.has(key) && !rows[index]) {
      rows[index] = once
        ? { text: IMPORT_MESSAGES.duplicateTarget, key: 'imports.messages.duplicateTarget' }
        : { text: IMPORT_MESSAGES.duplicateMapping, key: 'imports.messages.duplicateMapping' };
    }
    seen.add(key);
  });
  return { general, rows };
}

/** True when a check found nothing. */
export function mappingIsValid(check: MappingCheck): boolean {
  return check.general.length === 0 && Object.keys(check.rows).length === 0;
}
