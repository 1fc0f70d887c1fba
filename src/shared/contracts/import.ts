import { z } from 'zod';
import { answer, moment, stampsShape, whole } from '../answer-schema';
import type { BroadcastProgress } from './broadcast';
import { ADDRESS_TYPES, addressTypeSchema, type AddressType } from '../address';
import { CSV_DELIMITERS, CSV_ENCODINGS } from '../csv-scanner';
import { MESSAGES } from '../messages';
import { requiredText } from '../zod-helpers';

// Contact import from CSV (spec 2 "imports page", 4 import status, 5 import rules, 9 limits).
//
// The API, all under /api/v1 and signed in (Authorization: Bearer <access token>):
//
// 1. POST /import/upload?file_name=<name>   body: the raw CSV bytes (Content-Type text/csv or
//    application/octet-stream; send Content-Length, as fetch(url, { body: file }) does).
//    The body is streamed into R2 under orgs/{org_id}/imports/{uuid}.csv, never buffered whole.
//    -> 201 { data: ImportUpload }
//    -> 413 { error: { code: 'bad_request', message: IMPORT_MESSAGES.tooLarge } } above IMPORT_MAX_BYTES
//       (checked on Content-Length before reading, and by counting the bytes as they stream)
//    -> 422 { error: { fields: { file_name | file: [...] } } } (missing name, empty body)
// 2. POST /import  body: ImportCreateInput
//    Checks the mapping against the file (its first line) and the organisation's fields, creates the import
//    with status 'new', queues it, and answers 201 { data: Import }. The file is read with `delimiter` (comma,
//    semicolon, tab) and `encoding` (utf-8, windows-1252), comma and UTF-8 when left out; the console detects
//    both and lets the user change them. 422 field paths: file_key, file_name, skip_first_line, delimiter,
//    encoding, mapping (the whole mapping: address and required-target rules),
//    mapping.<i>.column, mapping.<i>.field_id, mapping.<i>.address_type.
//    409 when an import of the same file_key was already started.
// 3. GET /import            the shared list contract: page, page_size, sort_by (created_at | id | file_name |
//    status), sort_order, search (file name), ids, status=<ImportStatus> -> { items: Import[], meta }.
//    List items leave out `rejections` (null); GET /import/:id has them.
//    GET /import/:id          -> { data: Import }; another organisation's import is a 404.
// 4. Live: GET /api/v1/live as a WebSocket (see LiveEvent below). The import consumer publishes
//    'import.progress' now and then while it runs, and 'import.finished' once when it ends.

/** 100 MB (spec 9): the largest CSV file an import accepts. */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
/** How many rejected rows keep their reason (the count covers all of them). */
export const IMPORT_MAX_REJECTIONS = 1000;

export const IMPORT_STATUSES = ['new', 'processing', 'success', 'fail'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Where a column's values go. `ignore` is the same as leaving the column out of the mapping. */
export const IMPORT_TARGETS = ['name', 'note', 'address', 'field', 'tags', 'ignore'] as const;
export type ImportTarget = (typeof IMPORT_TARGETS)[number];

/** Targets every mapping must have, with the label the message names. */
export const IMPORT_REQUIRED_TARGETS: readonly { target: ImportTarget; label: string }[] = [{ target: 'name', label: 'Name' }];

/** The address types a contact import accepts (spec 5). */
export const IMPORT_ADDRESS_TYPES: readonly AddressType[] = ADDRESS_TYPES;

export const IMPORT_MESSAGES = {
  noRows: 'The file does not contain any rows for import.',
  addressRequired: `At least one column must be mapped to an address type: ${ADDRESS_TYPES.join(', ')}`,
  required: (label: string) => `Field '${label}' is required`,
  tooLarge: `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files.`,
  fileMissing: 'The uploaded file was not found. Upload it again.',
  alreadyStarted: 'An import of this file has already been started.',
  duplicateTarget: 'Only one column can be mapped to this target',
  duplicateMapping: 'This column is already mapped to the same target',
  unknownField: 'Field not found',
  columnMissing: (columns: number) => `The file has ${columns} column${columns === 1 ? '' : 's'} (0 to ${columns - 1})`,
  fileName: 'The file name is required (?file_name=)',
  unknownTags: 'These tags do not exist: choose tags of this organisation',
  unknownSubscriptions: 'These subscriptions do not exist: choose subscriptions of this organisation',
  delimiter: `Choose one of: ${CSV_DELIMITERS.join(', ')}`,
  encoding: `Choose one of: ${CSV_ENCODINGS.join(', ')}`,
} as const;

/** How the file's values are separated (the console detects it and lets the user change it); comma by default. */
export const importDelimiterSchema = z.enum(CSV_DELIMITERS, { error: IMPORT_MESSAGES.delimiter });
/** How the file's bytes are text (UTF-8 with or without a byte-order mark, or Windows-1252); UTF-8 by default. */
export const importEncodingSchema = z.enum(CSV_ENCODINGS, { error: IMPORT_MESSAGES.encoding });

const columnIndex = z
  .number({ error: (issue) => (issue.input == null ? MESSAGES.required : 'Must be a column index (0 for the first column)') })
  .int('Must be a column index (0 for the first column)')
  .min(0, 'Must be a column index (0 for the first column)')
  .max(9999, 'Must be a column index (0 for the first column)');

/**
 * One mapping entry: a column (0 = first) and the target its values go to. A column may feed several targets
 * (e.g. an e-mail column as both `address` and `name`). name and note at most once; each field at most once;
 * any number of address and tags columns.
 */
export const importMappingEntrySchema = z.discriminatedUnion(
  'target',
  [
    z.object({ column: columnIndex, target: z.literal('name') }).strict(),
    z.object({ column: columnIndex, target: z.literal('note') }).strict(),
    z.object({ column: columnIndex, target: z.literal('address'), address_type: addressTypeSchema }).strict(),
    z
      .object({
        column: columnIndex,
        target: z.literal('field'),
        field_id: z
          .number({ error: (i) => (i.input == null ? MESSAGES.required : 'Must be a field id') })
          .int()
          .positive('Must be a field id'),
      })
      .strict(),
    z.object({ column: columnIndex, target: z.literal('tags') }).strict(),
    z.object({ column: columnIndex, target: z.literal('ignore') }).strict(),
  ],
  { error: (issue) => (issue.input == null ? MESSAGES.required : `Choose one of: ${IMPORT_TARGETS.join(', ')}`) },
);
export type ImportMappingEntry = z.infer<typeof importMappingEntrySchema>;

/** Rules of a whole mapping that need no database: the address rule, required targets, no duplicates. */
function checkMapping(mapping: ImportMappingEntry[], ctx: z.RefinementCtx) {
  if (!mapping.some((entry) => entry.target === 'address')) {
    ctx.addIssue({ code: 'custom', message: IMPORT_MESSAGES.addressRequired, path: [] });
  }
  for (const required of IMPORT_REQUIRED_TARGETS) {
    if (!mapping.some((entry) => entry.target === required.target)) {
      ctx.addIssue({ code: 'custom', message: IMPORT_MESSAGES.required(required.label), path: [] });
    }
  }
  const seen = new Set<string>();
  mapping.forEach((entry, i) => {
    const once = entry.target === 'name' || entry.target === 'note' ? entry.target : entry.target === 'field' ? `field:${entry.field_id}` : null;
    if (once && seen.has(once)) ctx.addIssue({ code: 'custom', message: IMPORT_MESSAGES.duplicateTarget, path: [i, 'target'] });
    if (once) seen.add(once);
    const exact = `${entry.column}:${JSON.stringify(entry)}`;
    if (!once && seen.has(exact)) ctx.addIssue({ code: 'custom', message: IMPORT_MESSAGES.duplicateMapping, path: [i, 'column'] });
    seen.add(exact);
  });
}

export const importMappingSchema = z
  .array(importMappingEntrySchema, { error: (issue) => (issue.input == null ? MESSAGES.required : MESSAGES.mustBeList) })
  .max(500, 'At most 500 mapping entries')
  .superRefine(checkMapping);

/** POST /import. */
export const importCreateSchema = z
  .object({
    /** The file_key POST /import/upload answered. */
    file_key: requiredText(300),
    /** The name shown in the list (the original file name). */
    file_name: requiredText(255),
    /** Spec 9: the first line (the header) is skipped by default. */
    skip_first_line: z.boolean({ error: MESSAGES.mustBeBoolean }).default(true),
    delimiter: importDelimiterSchema.default('comma'),
    encoding: importEncodingSchema.default('utf-8'),
    mapping: importMappingSchema,
    /** Tags every imported contact gets, besides those a tags column gives it. */
    tag_ids: z
      .array(z.number({ error: 'Must be a tag id' }).int('Must be a tag id').positive('Must be a tag id'), { error: MESSAGES.mustBeList })
      .max(100, 'At most 100 tags')
      .default([]),
    /** Subscriptions every imported contact joins as a confirmed member (source 'import'): the organisation collected the consent. */
    subscription_ids: z
      .array(z.number({ error: 'Must be a subscription id' }).int('Must be a subscription id').positive('Must be a subscription id'), {
        error: MESSAGES.mustBeList,
      })
      .max(100, 'At most 100 subscriptions')
      .default([]),
  })
  .strict();
export type ImportCreateInput = z.input<typeof importCreateSchema>;

/** GET /import filters besides the shared list parameters. */
export const importFilterShape = {
  status: z.enum(IMPORT_STATUSES, { error: `status must be one of: ${IMPORT_STATUSES.join(', ')}` }).optional(),
};

/** POST /import/upload?file_name= query. */
export const importUploadQuerySchema = z.object({ file_name: requiredText(255) }).strict();

export interface ImportUpload {
  file_key: string;
  file_name: string;
  /** Bytes stored. */
  file_size: number;
}

export const importRejectionSchema = answer({ row: whole(), reason: z.string() });
export type ImportRejection = z.infer<typeof importRejectionSchema>;

export const importSchema = answer({
  id: whole(),
  file_name: z.string(),
  file_size: whole(),
  status: z.enum(IMPORT_STATUSES),
  skip_first_line: z.boolean(),
  delimiter: importDelimiterSchema.describe('What separates the values: comma, semicolon or tab'),
  encoding: importEncodingSchema.describe('How the bytes are read as text: utf-8 or windows-1252'),
  mapping: z.array(importMappingEntrySchema),
  tag_ids: z.array(whole()).describe('Tags every imported contact gets, besides those of its row'),
  subscription_ids: z.array(whole()).describe("Subscriptions every imported contact joins as a confirmed member (source 'import')"),
  created_count: whole().describe('Contacts created'),
  updated_count: whole().describe('Contacts updated: their address was already known, in the organisation or earlier in the file'),
  rejected_count: whole(),
  rejections: z.array(importRejectionSchema).nullable().describe(`The first ${IMPORT_MAX_REJECTIONS} rejected rows, in file order; null in lists`),
  processed_bytes: whole().describe('Bytes of the file already committed (processed_bytes / file_size is the fraction done)'),
  processed_rows: whole(),
  error: z.string().nullable().describe('Why the import failed (status fail), else null'),
  ...stampsShape,
  finished_at: moment().nullable(),
});
export type Import = z.infer<typeof importSchema>;

/** An import as live events carry it (without the rejection list). */
export type ImportSummary = Omit<Import, 'rejections' | 'mapping' | 'tag_ids' | 'subscription_ids'>;

/**
 * Events on the live channel, GET /api/v1/live (WebSocket, one JSON text frame per event).
 * Browsers cannot set Authorization on a WebSocket, so the access token goes either
 *   - in the query: new WebSocket(`wss://${host}/api/v1/live?access_token=${token}`), or
 *   - as a subprotocol: new WebSocket(`wss://${host}/api/v1/live`, [LIVE_TOKEN_PROTOCOL, token]);
 *     the server answers with the LIVE_TOKEN_PROTOCOL subprotocol.
 * It is checked exactly like the Authorization header (same organisation, live session); a bad one is a 401
 * before the upgrade. Send 'ping' to get 'pong' (keep-alive). Reconnect with a fresh token when it closes.
 */
export type LiveEvent =
  | { type: 'import.progress'; import: ImportSummary }
  | { type: 'import.finished'; import: ImportSummary }
  /** A broadcast's counters or status changed (src/shared/contracts/broadcast.ts). */
  | { type: 'broadcast.progress'; broadcast: BroadcastProgress };

/** The subprotocol marker that precedes the access token in Sec-WebSocket-Protocol. */
export const LIVE_TOKEN_PROTOCOL = 'access_token';
