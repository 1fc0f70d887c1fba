import { asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../context';
import { TenantScope, type TenantTable } from '../../db/tenant-scope';
import { notFound } from '../../lib/api-error';
import { parseId, validJson, validQuery } from '../../lib/validate';
import {
  bulkDeleteSchema,
  listQuerySchema,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_WITH_IDS,
  prioritiesSchema,
  type ListResponse,
  type SortOrder,
} from '../../shared/list';
import { filterCondition, type ListFilter } from './list-filter';
import { withUniqueFields } from './unique-violation';

type ListQuery = z.infer<ReturnType<typeof listQuerySchema>> & ListFilter;

/** What an entity declares to get the shared list/read/create/update/delete/reorder contract. */
export interface CrudConfig<T extends TenantTable, Input, Dto> {
  table: T;
  /** Body of POST and PUT; PATCH accepts any subset of it. */
  input: z.ZodObject<z.ZodRawShape, z.core.$strict>;
  /** API sort key -> column. The first key is not special; `defaultSort` names the default. */
  sortable: Record<string, SQLiteColumn>;
  defaultSort: { key: string; order: SortOrder };
  /** Columns that `search` looks through. */
  search: SQLiteColumn[];
  /** The table's `priority` column when the entity is drag-reorderable: new rows go last, POST /priorities reorders. */
  priority?: SQLiteColumn;
  /** Extra list/bulk-delete filters: their query schema and the conditions they add. */
  filters?: { shape: z.ZodRawShape; where: (filter: ListFilter) => (SQL | undefined)[] };
  toValues: (input: Partial<Input>) => Partial<T['$inferInsert']>;
  toDto: (row: T['$inferSelect']) => Dto;
}

/** Builds the Hono routes of one entity from its config; every entity mounts these rather than writing its own. */
export function crudRoutes<T extends TenantTable, Input, Dto>(config: CrudConfig<T, Input, Dto>) {
  const sortKeys = Object.keys(config.sortable) as [string, ...string[]];
  const extraShape = config.filters?.shape ?? {};
  const listSchema = listQuerySchema(sortKeys).extend(extraShape);
  const bulkSchema = bulkDeleteSchema.extend(extraShape);
  const scopeOf = (c: { var: AppEnv['Variables'] }) => new TenantScope(c.var.db, config.table, c.var.org.id);
  const condition = (scope: TenantScope<T>, filter: ListFilter) =>
    filterCondition(scope, config.search, filter, config.filters?.where);
  const table = config.table as SQLiteTable;

  return new Hono<AppEnv>()
    .get('/', validQuery(listSchema), async (c) => {
      const query = c.req.valid('query') as ListQuery;
      const scope = scopeOf(c);
      const page = query.page ?? 1;
      const pageSize = query.page_size ?? (query.ids?.length ? PAGE_SIZE_WITH_IDS : PAGE_SIZE_DEFAULT);
      const sortKey = query.sort_by ?? config.defaultSort.key;
      const order = (query.sort_order ?? config.defaultSort.order) === 'asc' ? asc : desc;
      const where = condition(scope, query);
      const [totals, rows] = await c.var.db.batch([
        c.var.db.select({ total: count() }).from(table).where(where),
        c.var.db
          .select()
          .from(table)
          .where(where)
          .orderBy(order(config.sortable[sortKey]), order(config.table.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
      ]);
      const total = totals[0]?.total ?? 0;
      const body: ListResponse<Dto> = {
        items: (rows as T['$inferSelect'][]).map(config.toDto),
        meta: { total, page, page_size: pageSize, total_pages: Math.ceil(total / pageSize) },
      };
      return c.json(body);
    })
    .delete('/', validJson(bulkSchema), async (c) => {
      const filter = c.req.valid('json') as ListFilter;
      const deleted = await scopeOf(c).db.delete(config.table).where(condition(scopeOf(c), filter)).returning({ id: config.table.id });
      return c.json({ data: { deleted: deleted.length } });
    })
    .post('/priorities', validJson(prioritiesSchema), async (c) => {
      if (!config.priority) throw notFound();
      const { ids } = c.req.valid('json');
      const scope = scopeOf(c);
      const priority = config.priority;
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
    })
    .get('/:id', async (c) => {
      const row = await findOr404(scopeOf(c), c.req.param('id'));
      return c.json({ data: config.toDto(row) });
    })
    .post('/', validJson(config.input), async (c) => {
      const scope = scopeOf(c);
      const values: Record<string, unknown> = { ...config.toValues(c.req.valid('json') as Input) };
      if (config.priority) {
        values.priority = sql`(SELECT COALESCE(MAX(${config.priority}), 0) + 1 FROM ${config.table} WHERE ${config.table.orgId} = ${scope.orgId})`;
      }
      const [row] = await withUniqueFields(() => scope.insert(values as never));
      return c.json({ data: config.toDto(row as T['$inferSelect']) }, 201);
    })
    .put('/:id', validJson(config.input), async (c) => update(c, c.req.valid('json') as Input))
    .patch('/:id', validJson(config.input.partial()), async (c) => update(c, c.req.valid('json') as Partial<Input>))
    .delete('/:id', async (c) => {
      const id = parseId(c.req.param('id'));
      const deleted = id ? await scopeOf(c).delete(eq(config.table.id, id)) : [];
      if (deleted.length === 0) throw notFound();
      return c.json({ data: { deleted: 1 } });
    });

  async function update(c: { var: AppEnv['Variables']; req: { param: (k: 'id') => string }; json: (b: unknown) => Response }, input: Partial<Input>) {
    const scope = scopeOf(c);
    const id = parseId(c.req.param('id'));
    if (!id) throw notFound();
    const values = { ...config.toValues(input), updatedAt: new Date().toISOString() };
    const [row] = await withUniqueFields(() => scope.update(eq(config.table.id, id), values as never));
    if (!row) throw notFound();
    return c.json({ data: config.toDto(row as T['$inferSelect']) });
  }

  async function findOr404(scope: TenantScope<T>, rawId: string) {
    const id = parseId(rawId);
    const row = id ? await scope.findById(id) : undefined;
    if (!row) throw notFound();
    return row;
  }
}
