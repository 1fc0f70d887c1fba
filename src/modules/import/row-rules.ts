// Turning one CSV record into the change it asks for, or the reason it is rejected (spec 5):
// - empty values are ignored: they never clear or overwrite anything;
// - booleans: yes/true/1 are true, no/false/0 false (any case); an empty cell is ignored like any empty
//   value, and a boolean field without a value reads as false; other text rejects the row;
// - select values are matched exactly (after trimming) against the options, unknown ones become new options;
//   multiselect and tags cells are split on commas and semicolons;
// - addresses follow the shared address rules (src/shared/address.ts): e-mails are lower-cased, phones must
//   be '+' and digits; an invalid address rejects the row, and a row needs at least one address;
// - a row must have as many columns as the file's first line;
// - a row naming an address erased at the person's request is rejected (checked per batch, run-import.ts).
import { addressError, normalizeAddress, type AddressType } from '../../shared/address';
import type { FieldType } from '../../shared/contracts/field';
import type { ImportMappingEntry, ImportRejection } from '../../shared/contracts/import';
import type { CsvRecord } from '../../shared/csv-scanner';

/** Lengths the contact and field APIs accept (src/shared/contracts/contact.ts, field.ts, tag.ts). */
export const IMPORT_LIMITS = { name: 200, note: 5000, text: 2000, option: 200, tag: 100 } as const;

export interface FieldMeta {
  id: number;
  name: string;
  type: FieldType;
}

export interface CompiledMapping {
  name: number | null;
  note: number | null;
  addresses: { column: number; type: AddressType }[];
  fields: { column: number; field: FieldMeta }[];
  tags: number[];
}

/** A field value before option names are resolved to ids. */
export type AttributeInput = { kind: 'text'; value: string } | { kind: 'number'; value: number } | { kind: 'options'; values: string[] };

export interface RowChange {
  row: number;
  name: string | null;
  note: string | null;
  /** Normalised, without repeats. */
  addresses: { type: AddressType; value: string }[];
  attributes: Map<number, AttributeInput>;
  tags: string[];
}

export type RowResult = { change: RowChange; rejection?: undefined } | { change?: undefined; rejection: ImportRejection };

/** The mapping in the shape the rules read; `fields` are the organisation's fields by id (checked before). */
export function compileMapping(mapping: ImportMappingEntry[], fields: Map<number, FieldMeta>): CompiledMapping {
  const compiled: CompiledMapping = { name: null, note: null, addresses: [], fields: [], tags: [] };
  for (const entry of mapping) {
    if (entry.target === 'name') compiled.name = entry.column;
    else if (entry.target === 'note') compiled.note = entry.column;
    else if (entry.target === 'address') compiled.addresses.push({ column: entry.column, type: entry.address_type });
    else if (entry.target === 'tags') compiled.tags.push(entry.column);
    else if (entry.target === 'field') {
      const field = fields.get(entry.field_id);
      if (field) compiled.fields.push({ column: entry.column, field });
    }
  }
  return compiled;
}

const TRUE_WORDS = new Set(['yes', 'true', '1']);
const FALSE_WORDS = new Set(['no', 'false', '0']);
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Splits a multiselect or tags cell on commas and semicolons, trimmed, without empties or repeats. */
export function splitList(cell: string): string[] {
  const out: string[] = [];
  for (const part of cell.split(/[,;]/)) {
    const value = part.trim();
    if (value && !out.includes(value)) out.push(value);
  }
  return out;
}

const quote = (value: string) => `'${value.length > 60 ? `${value.slice(0, 57)}...` : value}'`;

/** Applies the import rules to one record; `columns` is the column count of the file's first line. */
export function toRowChange(record: CsvRecord, mapping: CompiledMapping, columns: number | null): RowResult {
  const reject = (reason: string): RowResult => ({ rejection: { row: record.row, reason } });
  if (record.error) return reject(record.error);
  const cells = record.fields;
  if (columns !== null && cells.length !== columns) {
    return reject(`The row has ${cells.length} column${cells.length === 1 ? '' : 's'}; the first line has ${columns}`);
  }
  const cell = (column: number) => (cells[column] ?? '').trim();

  const name = mapping.name === null ? '' : cell(mapping.name);
  if (name.length > IMPORT_LIMITS.name) return reject(`The name is longer than ${IMPORT_LIMITS.name} characters`);
  const note = mapping.note === null ? '' : cell(mapping.note);
  if (note.length > IMPORT_LIMITS.note) return reject(`The note is longer than ${IMPORT_LIMITS.note} characters`);

  const addresses: RowChange['addresses'] = [];
  for (const { column, type } of mapping.addresses) {
    const raw = cell(column);
    if (!raw) continue;
    const problem = addressError(type, raw);
    if (problem) return reject(`${problem}: ${quote(raw)} (column ${column + 1}, ${type})`);
    const value = normalizeAddress(type, raw);
    if (!addresses.some((a) => a.type === type && a.value === value)) addresses.push({ type, value });
  }
  if (addresses.length === 0) return reject('The row has no e-mail or phone');

  const attributes = new Map<number, AttributeInput>();
  for (const { column, field } of mapping.fields) {
    const raw = cell(column);
    if (!raw) continue;
    const label = `'${field.name}'`;
    if (field.type === 'text') {
      if (raw.length > IMPORT_LIMITS.text) return reject(`${label} is longer than ${IMPORT_LIMITS.text} characters`);
      attributes.set(field.id, { kind: 'text', value: raw });
    } else if (field.type === 'number') {
      if (!NUMBER.test(raw) || !Number.isFinite(Number(raw))) return reject(`${label} must be a number, not ${quote(raw)}`);
      attributes.set(field.id, { kind: 'number', value: Number(raw) });
    } else if (field.type === 'boolean') {
      const word = raw.toLowerCase();
      if (TRUE_WORDS.has(word)) attributes.set(field.id, { kind: 'number', value: 1 });
      else if (FALSE_WORDS.has(word)) attributes.set(field.id, { kind: 'number', value: 0 });
      else return reject(`${label} must be yes/no, true/false or 1/0, not ${quote(raw)}`);
    } else {
      const values = field.type === 'multiselect' ? splitList(raw) : [raw];
      const long = values.find((v) => v.length > IMPORT_LIMITS.option);
      if (long) return reject(`${label}: the option ${quote(long)} is longer than ${IMPORT_LIMITS.option} characters`);
      if (values.length) attributes.set(field.id, { kind: 'options', values });
    }
  }

  const tags: string[] = [];
  for (const column of mapping.tags) {
    for (const tag of splitList(cell(column))) {
      if (tag.length > IMPORT_LIMITS.tag) return reject(`The tag ${quote(tag)} is longer than ${IMPORT_LIMITS.tag} characters`);
      if (!tags.includes(tag)) tags.push(tag);
    }
  }

  return { change: { row: record.row, name: name || null, note: note || null, addresses, attributes, tags } };
}
