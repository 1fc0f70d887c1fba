import { and, asc, desc, eq, not, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../../context';
import type { Database } from '../../db/client';
import { TenantScope, type TenantTable } from '../../db/tenant-scope';
import { ApiError, notFound, validationFailed } from '../../lib/api-error';
import { parseId, validJson, validJsonBy, validQuery } from '../../lib/validate';
import {
  bulkDeleteSchema,
  listQuerySchema,
  REMOVING_PAGE_SIZE,
  requireBulkDeleteTarget,
  type BulkDeleteResult,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_WITH_IDS,
  prioritiesSchema,
  type ListResponse,
  type SortOrder,
} from '../../shared/list';
import { changedFields, recordActivity } from '../activity-log/record';
import { keptTotalOf, listMeta, listTotalCap, totalQuery, type KeptCount, type KeptTotals } from '../stats/list-counts';
import { mergedListPage } from './merged-list';
import { filterCondition, type ListFilter } from './list-filter';
import { nextPriority, rowOr404 } from './rows';
import { withUniqueFields } from './unique-violation';

type ListQuery = z.infer<ReturnType<typeof listQuerySchema>> & ListFilter;
type Ctx = Context<AppEnv>;
export type Operation = 'list' | 'read' | 'create' | 'update' | 'delete' | 'bulkDelete' | 'reorder';

/** What an entity declares to get the shared list/read/create/update/delete/reorder contract. */
export interface CrudConfig<T extends TenantTable, Input, Dto> {
  table: T;
  /** Body of POST and PUT. PATCH accepts any subset of it unless `patchInput` is given. */
  input: z.ZodObject<z.ZodRawShape, z.core.$strict>;
  /** Body of PATCH/PUT when it differs from create (e.g. a type that is fixed at creation). */
  updateInput?: z.ZodObject<z.ZodRawShape, z.core.$strict>;
  /** API sort key -> column (or SQL expression). */
  sortable: Record<string, SQLiteColumn | SQL>;
  defaultSort: { key: string; order: SortOrder };
  /** Columns that `search` looks through with LIKE. */
  search: SQLiteColumn[];
  /** A search condition of its own (e.g. across child rows), used instead of `search` columns. */
  searchWhere?: (text: string, c: Ctx) => SQL | undefined;
  /** The table's `priority` column when the entity is drag-reorderable: new rows go last, POST /priorities reorders. */
  priority?: SQLiteColumn;
  /** Extra list/bulk-delete filters: their query schema and the conditions they add. */
  filters?: { shape: z.ZodRawShape; where: (filter: ListFilter, c: Ctx) => (SQL | undefined)[] };
  /** Which routes to mount (default: all that apply). */
  only?: Operation[];
  /** Name used in the activity log; omit to not log (e.g. the log itself). */
  audit?: string;
  /** Row values of a simple single-table write. Ignored when `write` is given. */
  toValues?: (input: Partial<Input>) => Partial<T['$inferInsert']>;
  /**
   * Writes of entities with child rows; they must scope every statement to c.var.org.id. Each returns the
   * written row when its statement gave it back, or (create) the new id / (update) nothing when a batch wrote
   * it, and the row is then read back. `update` gets the row as loaded before the change.
   */
  write?: {
    create: (c: Ctx, input: Input) => Promise<T['$inferSelect'] | number>;
    update: (c: Ctx, existing: T['$inferSelect'], input: Partial<Input>) => Promise<T['$inferSelect'] | void>;
  };
  /** Checks that need the database (references belong to the organisation, ...); throw a 422 to refuse. */
  validate?: (c: Ctx, input: Partial<Input>, existing?: T['$inferSelect']) => Promise<void>;
  /**
   * A field fixed at creation that the create and update paths may also name as a last segment
   * (integration type: POST /smtp, PUT|PATCH /:id/smtp). The segment fills the field when the body omits it
   * and must agree with it when given; on update it must match the row, else the row is not found.
   */
  typeSegment?: { field: string; values: readonly [string, ...string[]] };
  /**
   * Rows that may not be deleted yet (e.g. a broadcast's message still waiting to go out): `keep` is their SQL
   * condition, left out of bulk deletes; deleting one of them alone is a 409 with `message`.
   */
  undeletable?: { keep: SQL; message: string };
  /** Runs after rows were deleted (one or in bulk), e.g. to remove their files from R2. */
  afterDelete?: (c: Ctx, ids: number[]) => Promise<void>;
  /** The kept counts that are this list's exact total (src/modules/stats/list-counts.ts); others count to the cap. */
  keptTotal?: KeptTotals;
  /**
   * Where the rows are when not in D1 (messages: the organisation's ledgers, src/modules/ledger): every store the
   * list reads (newest generation first; more than one only after the size guard opened a generation), and the one
   * store a row id names (null: none of the organisation's).
   */
  stores?: { all: (c: Ctx) => Promise<Database[]>; ofId: (c: Ctx, id: number) => Promise<Database | null> };
  /** Rows to response objects; async so relations can be loaded for a whole page at once. */
  present: (c: Ctx, rows: T['$inferSelect'][]) => Promise<Dto[]> | Dto[];
}

/** Builds the Hono routes of one entity from its config; every entity mounts these rather than writing its own. */
export function crudRoutes<T extends TenantTable, Input, Dto extends object>(config: CrudConfig<T, Input, Dto>) {
  const ops = new Set<Operation>(config.only ?? ['list', 'read', 'create', 'update', 'delete', 'bulkDelete', 'reorder']);
  const sortKeys = Object.keys(config.sortable) as [string, ...string[]];
  const extraShape = config.filters?.shape ?? {};
  const listSchema = listQuerySchema(sortKeys).extend(extraShape);
  const bulkSchema = requireBulkDeleteTarget(bulkDeleteSchema.extend(extraShape));
  const table = config.table as SQLiteTable;
  const storesOf = async (c: Ctx): Promise<Database[]> => (config.stores ? config.stores.all(c) : [c.var.db]);
  /** The organisation's row of the route's id from the store that holds it; a 404 when there is none. */
  const rowOfRoute = async (c: Ctx): Promise<{ row: T['$inferSelect']; db: Database }> => {
    const id = parseId(c.req.param('id'));
    const db = !config.stores ? c.var.db : id ? await config.stores.ofId(c, id) : null;
    if (!db) throw notFound();
    return { row: await rowOr404(c, config.table, 'id', db), db };
  };
  const scopeOf = (c: Ctx, db: Database = c.var.db) => new TenantScope(db, config.table, c.var.org.id);
  const condition = (c: Ctx, filter: ListFilter) =>
    filterCondition(scopeOf(c), config.searchWhere ? [] : config.search, filter, (f) => [
      config.searchWhere && f.search ? config.searchWhere(f.search, c) : undefined,
      ...(config.filters?.where(f, c) ?? []),
    ]);
  const presentOne = async (c: Ctx, row: T['$inferSelect']) => (await config.present(c, [row]))[0];

  /** The inserted row: as the insert returned it, or read back when a batch wrote it. */
  async function insertRow(c: Ctx, input: Input): Promise<T['$inferSelect']> {
    if (config.write) {
      const written = await config.write.create(c, input);
      return typeof written === 'number' ? (await scopeOf(c).findById(written))! : written;
    }
    const values: Record<string, unknown> = { ...config.toValues?.(input) };
    if (config.priority) values.priority = nextPriority(config.table, config.priority, c.var.org.id);
    const [row] = await scopeOf(c).insert(values as never);
    return row as T['$inferSelect'];
  }

  /** The updated row: as the update returned it, or read back when a batch wrote it. */
  async function updateRow(c: Ctx, existing: T['$inferSelect'], input: Partial<Input>): Promise<T['$inferSelect']> {
    const id = existing.id as number;
    if (config.write) return (await config.write.update(c, existing, input)) ?? (await scopeOf(c).findById(id))!;
    const values = { ...config.toValues?.(input), updatedAt: new Date().toISOString() };
    const [row] = await scopeOf(c).update(eq(config.table.id, id), values as never);
    return row as T['$inferSelect'];
  }

  async function update(c: Ctx, input: Partial<Input>) {
    const existing = await rowOr404(c, config.table);
    const segment = config.typeSegment && c.req.param('segment');
    if (segment && (existing as Record<string, unknown>)[config.typeSegment!.field] !== segment) throw notFound();
    const id = existing.id as number;
    // The version before the change is only needed for the activity log's field-by-field diff.
    const before = config.audit ? await presentOne(c, existing) : null;
    await config.validate?.(c, input, existing);
    const after = await presentOne(c, await withUniqueFields(() => updateRow(c, existing, input)));
    if (config.audit) await recordActivity(c, config.audit, id, 'update', changedFields(before, after));
    return c.json({ data: after });
  }

  /** A list page from one store: the rows and a kept count, or a count that stops at the cap, in one round trip. */
  async function onePage(
    db: Database,
    orgId: number,
    where: SQL,
    sort: SQLiteColumn | SQL,
    descending: boolean,
    page: number,
    pageSize: number,
    kept: KeptCount | null,
    cap: number,
  ): Promise<{ total: number; rows: T['$inferSelect'][] }> {
    const order = descending ? desc : asc;
    // A page never pays for counting a million matches.
    const matches = () =>
      db
        .select({ one: sql<number>`1`.as('one') })
        .from(table)
        .where(where);
    const [totals, rows] = await db.batch([
      totalQuery(db, orgId, kept, matches, cap),
      db
        .select()
        .from(table)
        .where(where)
        .orderBy(order(sort), order(config.table.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    ]);
    return { total: Number(totals[0]?.total ?? 0), rows: rows as T['$inferSelect'][] };
  }

  const app = new Hono<AppEnv>();

  if (ops.has('list')) {
    app.get('/', validQuery(listSchema), async (c) => {
      const query = c.req.valid('query') as ListQuery;
      const stores = await storesOf(c);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? (query.ids?.length ? PAGE_SIZE_WITH_IDS : PAGE_SIZE_DEFAULT);
      const descending = (query.sort_order ?? config.defaultSort.order) !== 'asc';
      const sort = config.sortable[query.sort_by ?? config.defaultSort.key];
      const where = condition(c, query);
      const kept = config.keptTotal ? keptTotalOf(config.keptTotal, Object.keys(extraShape), query) : null;
      const cap = listTotalCap(c.env);
      const { total, rows } =
        stores.length === 1
          ? await onePage(stores[0], c.var.org.id, where, sort, descending, page, pageSize, kept, cap)
          : await mergedListPage(config.table, stores, { orgId: c.var.org.id, where, sort: sort as SQLiteColumn, descending, page, pageSize, kept, cap });
      const body: ListResponse<Dto> = {
        items: await config.present(c, rows as T['$inferSelect'][]),
        meta: listMeta(total, kept, cap, page, pageSize),
      };
      return c.json(body);
    });
  }

  if (ops.has('bulkDelete')) {
    // By ids: those rows (at most IDS_MAX). By "all": one page of the matching rows, lowest ids first, as one
    // statement (a contact takes its addresses, tags, attributes and search rows with it, so an interruption
    // never leaves a row half-deleted). D1 has one writer: after a page the request waits as long as the page
    // held the database before it answers, so a delete-all running page after page takes at most half of it
    // and other organisations' requests get their turns.
    app.delete('/', validJson(bulkSchema), async (c) => {
      const body = c.req.valid('json') as ListFilter & { ids?: number[]; all?: true; page_size?: number };
      const { all, page_size: pageSize, ...filter } = body;
      const matching = and(condition(c, filter as ListFilter), config.undeletable ? not(config.undeletable.keep) : undefined);
      // By ids: each store deletes those it holds. By "all": the page comes from the oldest store that has matches.
      const stores = (await storesOf(c)).slice().reverse();
      const deleted: { id: unknown }[] = [];
      let more = false;
      for (const [index, db] of stores.entries()) {
        let where = matching;
        if (all) {
          const size = pageSize ?? REMOVING_PAGE_SIZE;
          const page = await db
            .select({ id: config.table.id })
            .from(table)
            .where(matching)
            .orderBy(asc(config.table.id))
            .limit(size + 1);
          if (page.length === 0) continue;
          more = page.length > size || index < stores.length - 1;
          where = and(matching, scopeOf(c, db).idIn(page.slice(0, size).map((r) => r.id as number)));
        }
        const started = Date.now();
        deleted.push(...(await db.delete(config.table).where(where).returning({ id: config.table.id })));
        if (all) {
          await new Promise((resolve) => setTimeout(resolve, Date.now() - started));
          break;
        }
      }
      if (deleted.length)
        await config.afterDelete?.(
          c,
          deleted.map((d) => d.id as number),
        );
      if (config.audit && deleted.length) {
        const ids = deleted.map((d) => d.id as number);
        const summary = ids.length <= 1000 ? JSON.stringify(ids) : `${ids.length} items`;
        await recordActivity(c, config.audit, null, 'delete', [{ field: 'ids', previous: summary, next: null }]);
      }
      const data: BulkDeleteResult = { deleted: deleted.length, more };
      return c.json({ data });
    });
  }

  if (ops.has('reorder') && config.priority) {
    const priority = config.priority;
    app.post('/priorities', validJson(prioritiesSchema), async (c) => {
      const { ids } = c.req.valid('json');
      const scope = scopeOf(c);
      const rows = await c.var.db
        .select({ id: config.table.id, priority })
        .from(table)
        .where(scope.where(scope.idIn(ids)));
      if (rows.length !== ids.length) throw notFound();
      // The moved rows keep the set of priority slots they already had, handed out in the new order,
      // so reordering one page never disturbs rows on other pages.
      const slots = rows.map((r) => Number(r.priority)).sort((a, b) => a - b);
      const distinct = new Set(slots).size === slots.length;
      const updates = ids.map((id, i) =>
        c.var.db
          .update(config.table)
          .set({ priority: distinct ? slots[i] : slots[0] + i } as never)
          .where(scope.where(eq(config.table.id, id))),
      );
      await c.var.db.batch(updates as [(typeof updates)[0], ...typeof updates]);
      return c.json({ data: { updated: ids.length } });
    });
  }

  if (ops.has('read')) {
    app.get('/:id', async (c) => c.json({ data: await presentOne(c, (await rowOfRoute(c)).row) }));
  }

  const segmentPath = config.typeSegment ? `:segment{${config.typeSegment.values.join('|')}}` : null;

  if (ops.has('create')) {
    const create = async (c: Ctx, input: Input) => {
      await config.validate?.(c, input);
      const row = await withUniqueFields(() => insertRow(c, input));
      const dto = await presentOne(c, row);
      if (config.audit) await recordActivity(c, config.audit, row.id as number, 'create', changedFields(null, dto));
      return c.json({ data: dto }, 201);
    };
    app.post('/', validJson(config.input), async (c) => create(c, c.req.valid('json') as Input));
    if (segmentPath) {
      const field = config.typeSegment!.field;
      // The type may come from the address (POST /integration/smtp): it fills or must match the body's.
      const withSegment = validJsonBy((value, c) => {
        const segment = c.req.param('segment');
        const body = value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : value;
        if (body && typeof body === 'object' && !Array.isArray(body)) {
          const given = (body as Record<string, unknown>)[field];
          if (given === undefined) (body as Record<string, unknown>)[field] = segment;
          else if (given !== segment) throw validationFailed({ [field]: [`${field} must be ${segment}, as in the address`] });
        }
        return config.input.safeParse(body);
      });
      app.post(`/${segmentPath}`, withSegment, async (c) => create(c, c.req.valid('json') as Input));
    }
  }

  if (ops.has('update')) {
    const putSchema = config.updateInput ?? config.input;
    const patchSchema = putSchema.partial();
    for (const path of segmentPath ? ['/:id', `/:id/${segmentPath}`] : ['/:id']) {
      app.put(path, validJson(putSchema), async (c) => update(c, c.req.valid('json') as Input));
      app.patch(path, validJson(patchSchema), async (c) => update(c, c.req.valid('json') as Partial<Input>));
    }
  }

  if (ops.has('delete')) {
    app.delete('/:id', async (c) => {
      const { row: existing, db } = await rowOfRoute(c);
      const before = config.audit ? await presentOne(c, existing) : null;
      const mine = eq(config.table.id, existing.id as number);
      const [gone] = await scopeOf(c, db).delete(config.undeletable ? and(mine, not(config.undeletable.keep)) : mine);
      if (!gone) throw new ApiError(409, 'conflict', config.undeletable!.message);
      await config.afterDelete?.(c, [existing.id as number]);
      if (config.audit) await recordActivity(c, config.audit, existing.id as number, 'delete', changedFields(before, null));
      return c.json({ data: { deleted: 1 } });
    });
  }

  return app;
}
