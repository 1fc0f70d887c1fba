import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { fields, imports, subscriptions, tags } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError, validationFailed } from '../../lib/api-error';
import { validJson, validQuery } from '../../lib/validate';
import {
  importCreateSchema,
  importFilterShape,
  importUploadQuerySchema,
  IMPORT_MESSAGES,
  type Import,
  type ImportCreateInput,
  type ImportUpload,
} from '../../shared/contracts/import';
import { crudRoutes } from '../crud/crud-routes';
import { fileSize } from './file-reader';
import { peekFile } from './file-peek';
import { presentImport } from './presenter';
import { IMPORT_JOB_KIND, type ImportJobMessage } from './run-import';
import { importFileKey, isOwnImportKey, storeUpload } from './upload';
import { deleteOrgFiles, recordFile, reserveFile } from '../files/stored-files';

/** /import: upload a CSV, start an import of it, and the shared list/read contract (see src/shared/contracts/import.ts). */
export const importRoutes = new Hono<AppEnv>();

importRoutes.post('/upload', validQuery(importUploadQuerySchema), async (c) => {
  const { file_name } = c.req.valid('query');
  const header = c.req.header('content-length');
  const declared = header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
  const key = importFileKey(c.var.org.id);
  // In the ledger before the bytes arrive: an upload cut off half-way is found and removed by the cleanup.
  await reserveFile(c.var.db, c.var.org.id, 'import', key);
  let size: number;
  try {
    size = await storeUpload(c.env.FILES, key, c.req.raw.body, declared);
  } catch (error) {
    await deleteOrgFiles(c.env.FILES, c.var.db, c.var.org.id, [key]);
    throw error;
  }
  await recordFile(c.var.db, c.var.org.id, 'import', key, size);
  const data: ImportUpload = { file_key: key, file_name, file_size: size };
  return c.json({ data }, 201);
});

importRoutes.post('/', validJson(importCreateSchema), async (c) => {
  const input = c.req.valid('json');
  const orgId = c.var.org.id;
  const errors: Record<string, string[]> = {};
  const add = (path: string, message: string) => (errors[path] ??= []).push(message);

  // Another organisation's key is treated exactly like a key that does not exist.
  const size = isOwnImportKey(orgId, input.file_key) ? await fileSize(c.env.FILES, input.file_key) : null;
  if (size === null) add('file_key', IMPORT_MESSAGES.fileMissing);
  else {
    const peek = await peekFile(c.env.FILES, input.file_key, size, input.skip_first_line, { delimiter: input.delimiter, encoding: input.encoding });
    if (!peek.hasDataRow) add('file_key', IMPORT_MESSAGES.noRows);
    if (peek.columns !== null) {
      input.mapping.forEach((entry, i) => {
        if (entry.column >= peek.columns!) add(`mapping.${i}.column`, IMPORT_MESSAGES.columnMissing(peek.columns!));
      });
    }
  }
  // Which of `ids` name rows of the organisation in `table` (fields, tags, subscriptions the import refers to).
  const owned = async (table: typeof fields | typeof tags | typeof subscriptions, ids: number[]): Promise<Set<number>> => {
    if (ids.length === 0) return new Set();
    const scope = new TenantScope(c.var.db, table, orgId);
    const found = await c.var.db
      .select({ id: table.id })
      .from(table)
      .where(scope.where(scope.idIn(ids)));
    return new Set(found.map((row) => row.id));
  };
  const fieldIds = input.mapping.flatMap((entry) => (entry.target === 'field' ? [entry.field_id] : []));
  const known = await owned(fields, fieldIds);
  input.mapping.forEach((entry, i) => {
    if (entry.target === 'field' && !known.has(entry.field_id)) add(`mapping.${i}.field_id`, IMPORT_MESSAGES.unknownField);
  });
  const allOwned = async (table: typeof tags | typeof subscriptions, ids: number[]) => (await owned(table, ids)).size === new Set(ids).size;
  if (!(await allOwned(tags, input.tag_ids))) add('tag_ids', IMPORT_MESSAGES.unknownTags);
  if (!(await allOwned(subscriptions, input.subscription_ids))) add('subscription_ids', IMPORT_MESSAGES.unknownSubscriptions);
  if (Object.keys(errors).length) throw validationFailed(errors);

  // One import per uploaded file, decided atomically (a retried or double-clicked start creates nothing twice).
  const created = await c.env.DB.prepare(
    `INSERT INTO imports (org_id, user_id, file_name, file_key, file_size, status, skip_first_line, mapping, tag_ids, delimiter, encoding, api_key_id,
       subscription_ids)
     SELECT ?1, ?2, ?3, ?4, ?5, 'new', ?6, ?7, ?8, ?9, ?10, ?11, ?12
     WHERE NOT EXISTS (SELECT 1 FROM imports WHERE org_id = ?1 AND file_key = ?4)
     RETURNING id`,
  )
    .bind(
      orgId,
      // Who started it: the user, or (no user) the organisation key that did.
      c.var.auth.userId,
      input.file_name,
      input.file_key,
      size,
      input.skip_first_line ? 1 : 0,
      JSON.stringify(input.mapping),
      JSON.stringify([...new Set(input.tag_ids)]),
      input.delimiter,
      input.encoding,
      c.var.auth.orgKey?.id ?? null,
      JSON.stringify([...new Set(input.subscription_ids)]),
    )
    .first<{ id: number }>();
  if (!created) throw new ApiError(409, 'conflict', IMPORT_MESSAGES.alreadyStarted);

  const message: ImportJobMessage = { kind: IMPORT_JOB_KIND, orgId, importId: created.id };
  try {
    await c.env.IMPORT_QUEUE.send(message);
  } catch (error) {
    await new TenantScope(c.var.db, imports, orgId).delete(eq(imports.id, created.id));
    throw error;
  }
  const row = await new TenantScope(c.var.db, imports, orgId).findById(created.id);
  return c.json({ data: presentImport(row!, true) }, 201);
});

importRoutes.route(
  '/',
  crudRoutes<typeof imports, ImportCreateInput, Import>({
    table: imports,
    input: importCreateSchema,
    sortable: { created_at: imports.createdAt, id: imports.id, file_name: imports.fileName, status: imports.status },
    defaultSort: { key: 'created_at', order: 'desc' },
    search: [imports.fileName],
    filters: {
      shape: importFilterShape,
      where: (filter) => [typeof filter.status === 'string' ? eq(imports.status, filter.status) : undefined],
    },
    only: ['list', 'read'],
    // The rejection list can be long: only GET /import/:id carries it.
    present: (c, rows) => rows.map((row) => presentImport(row, c.req.param('id') !== undefined)),
  }),
);
