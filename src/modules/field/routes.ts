import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { fields } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { fieldFilterShape, fieldInputSchema, fieldUpdateSchema, hasOptions, type Field, type FieldInput, type FieldType } from '../../shared/contracts/field';
import { crudRoutes } from '../crud/crud-routes';
import { rawBatch } from '../crud/raw-batch';
import { nextPriority } from '../crud/rows';
import { insertOptionsOfNewField, optionsByField, replaceOptions } from './options';

type Ctx = Context<AppEnv>;
type Row = typeof fields.$inferSelect;
const scopeOf = (c: Ctx) => new TenantScope(c.var.db, fields, c.var.org.id);

/** Creates a field and its options in one D1 batch (atomic); options of non-option types are dropped. */
async function createField(c: Ctx, input: FieldInput): Promise<Row | number> {
  const options = hasOptions(input.type) ? (input.options ?? []) : [];
  const insertField = scopeOf(c).insert({
    name: input.name,
    alias: input.alias,
    type: input.type,
    priority: nextPriority(fields, fields.priority, c.var.org.id),
  } as never);
  if (options.length === 0) return (await insertField)[0];
  const [inserted] = await rawBatch(c.var.db, [insertField, insertOptionsOfNewField(c, input.alias, options)]);
  return inserted.results[0].id as number;
}

/** Updates name and alias and, for select and multiselect fields, the options, in one D1 batch. The type never changes. */
async function updateField(c: Ctx, field: Row, input: Partial<FieldInput>): Promise<Row | void> {
  const values = {
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(input.alias === undefined ? {} : { alias: input.alias }),
    updatedAt: new Date().toISOString(),
  };
  const updateRow = scopeOf(c).update(eq(fields.id, field.id), values);
  if (!hasOptions(field.type) || input.options === undefined) return (await updateRow)[0];
  await rawBatch(c.var.db, [updateRow, ...(await replaceOptions(c, field.id, input.options))]);
}

/** Fields as the API answers them, with their options (one query for all option fields). */
export async function presentFields(c: Ctx, rows: Row[]): Promise<Field[]> {
  const options = await optionsByField(
    c,
    rows.filter((row) => hasOptions(row.type)).map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    alias: row.alias,
    type: row.type as FieldType,
    priority: row.priority,
    options: options.get(row.id) ?? [],
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}

/** /field: custom contact fields with their options, drag-reorderable. */
export const fieldRoutes = crudRoutes<typeof fields, FieldInput, Field>({
  table: fields,
  input: fieldInputSchema,
  updateInput: fieldUpdateSchema,
  sortable: {
    priority: fields.priority,
    id: fields.id,
    name: fields.name,
    alias: fields.alias,
    created_at: fields.createdAt,
    updated_at: fields.updatedAt,
  },
  defaultSort: { key: 'priority', order: 'asc' },
  search: [fields.name, fields.alias],
  priority: fields.priority,
  filters: {
    shape: fieldFilterShape,
    where: (filter) => [typeof filter.type === 'string' ? eq(fields.type, filter.type) : undefined],
  },
  audit: 'field',
  write: { create: createField, update: updateField },
  present: presentFields,
});
