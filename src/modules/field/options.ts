import { asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { fieldOptions } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { FIELD_MESSAGES, type FieldOption } from '../../shared/contracts/field';

type Ctx = Context<AppEnv>;
type OptionInput = { id?: number; value: string };

const scopeOf = (c: Ctx) => new TenantScope(c.var.db, fieldOptions, c.var.org.id);

/** The options of many fields, keyed by field id and in display order: one query for a whole page of fields. */
export async function optionsByField(c: Ctx, fieldIds: number[]): Promise<Map<number, FieldOption[]>> {
  const byField = new Map<number, FieldOption[]>();
  if (fieldIds.length === 0) return byField;
  const scope = scopeOf(c);
  const rows = await c.var.db
    .select({ id: fieldOptions.id, fieldId: fieldOptions.fieldId, value: fieldOptions.value })
    .from(fieldOptions)
    .where(scope.where(sql`${fieldOptions.fieldId} IN (SELECT value FROM json_each(${JSON.stringify(fieldIds)}))`))
    .orderBy(asc(fieldOptions.fieldId), asc(fieldOptions.position), asc(fieldOptions.id));
  for (const row of rows) {
    const list = byField.get(row.fieldId) ?? [];
    list.push({ id: row.id, value: row.value });
    byField.set(row.fieldId, list);
  }
  return byField;
}

/**
 * The statement that adds the options of a field being created in the same batch: the new field's id is found by
 * its alias, which is unique in the organisation, so the batch needs no round trip between the two inserts.
 */
export function insertOptionsOfNewField(c: Ctx, alias: string, options: OptionInput[]) {
  const orgId = c.var.org.id;
  const json = JSON.stringify(options.map((o) => o.value));
  return c.var.db.run(sql`
    INSERT INTO ${fieldOptions} (org_id, field_id, value, position)
    SELECT ${orgId}, (SELECT id FROM fields WHERE org_id = ${orgId} AND alias = ${alias}), j.value, j.key
    FROM json_each(${json}) j`);
}

/**
 * The statements that make a field's options equal to `options` (in that order): options with an id are renamed,
 * options without one are added, the others removed (their contact values go with them by FK cascade).
 * Refuses ids that are not options of this field with a 422 on `options.<i>.id`.
 */
export async function replaceOptions(c: Ctx, fieldId: number, options: OptionInput[]) {
  const db = c.var.db;
  const orgId = c.var.org.id;
  const scope = scopeOf(c);
  const ofField = (...more: (SQL | undefined)[]) => scope.where(eq(fieldOptions.fieldId, fieldId), ...more);
  const existing = new Set((await db.select({ id: fieldOptions.id }).from(fieldOptions).where(ofField())).map((r) => r.id));
  const errors: Record<string, string[]> = {};
  options.forEach((o, i) => {
    if (o.id !== undefined && !existing.has(o.id)) errors[`options.${i}.id`] = [FIELD_MESSAGES.unknownOption];
  });
  if (Object.keys(errors).length) throw validationFailed(errors);

  const kept = options.map((o, position) => ({ ...o, position })).filter((o) => o.id !== undefined);
  const added = options.map((o, position) => ({ ...o, position })).filter((o) => o.id === undefined);
  const keptIds = JSON.stringify(kept.map((o) => o.id));
  const keptJson = JSON.stringify(kept.map((o) => ({ id: o.id, value: o.value, position: o.position })));
  const inKept = sql`${fieldOptions.id} IN (SELECT value FROM json_each(${keptIds}))`;
  const fromKept = (key: string) =>
    sql`(SELECT json_extract(j.value, ${`$.${key}`}) FROM json_each(${keptJson}) j WHERE json_extract(j.value, '$.id') = ${fieldOptions.id})`;
  return [
    db.delete(fieldOptions).where(ofField(sql`${fieldOptions.id} NOT IN (SELECT value FROM json_each(${keptIds}))`)),
    // Renames go through a placeholder first, so swapping two values never trips the (field_id, value) unique index.
    db
      .update(fieldOptions)
      .set({ value: sql`char(0) || ${fieldOptions.id}` })
      .where(ofField(inKept)),
    db
      .update(fieldOptions)
      .set({ value: fromKept('value'), position: fromKept('position') })
      .where(ofField(inKept)),
    db.run(sql`
      INSERT INTO ${fieldOptions} (org_id, field_id, value, position)
      SELECT ${orgId}, ${fieldId}, json_extract(j.value, '$.value'), json_extract(j.value, '$.position')
      FROM json_each(${JSON.stringify(added.map((o) => ({ value: o.value, position: o.position })))}) j`),
  ] as const;
}
