import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { apiKeys } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError } from '../../lib/api-error';
import { requireSession, userIdOf } from '../../middleware/auth';
import { validJson } from '../../lib/validate';
import { apiKeyNoteSchema, type ApiKeyRow } from '../../shared/contracts/account';
import type { ListResponse } from '../../shared/list';
import { MESSAGES } from '../../shared/messages';
import { changedFields, recordActivity } from '../activity-log/record';
import { newApiKey, ownApiKey, presentApiKey, type ApiKeyRecord } from './api-keys';

const keyExists = () => new ApiError(409, 'api_key_exists', MESSAGES.apiKeyExists);
const isUniqueViolation = (err: unknown) => /UNIQUE constraint failed/i.test(String((err as Error)?.message ?? err));

/**
 * /internal-api-key: the current user's API key, at most one (app.ts requires a signed-in caller; managing
 * keys needs a console session). The secret is returned once, by create and regenerate, and kept only hashed.
 */
export const apiKeyRoutes = new Hono<AppEnv>()
  .use('*', requireSession)
  .get('/', async (c) => {
    const rows = (await new TenantScope(c.var.db, apiKeys, c.var.org.id).selectWhere(eq(apiKeys.userId, userIdOf(c)))) as ApiKeyRecord[];
    const body: ListResponse<ApiKeyRow> = {
      items: rows.map((row) => presentApiKey(row)),
      meta: { total: rows.length, page: 1, page_size: rows.length, total_pages: 1 },
    };
    return c.json(body);
  })
  .post('/', validJson(apiKeyNoteSchema), async (c) => {
    const scope = new TenantScope(c.var.db, apiKeys, c.var.org.id);
    const [existing] = await scope.selectWhere(eq(apiKeys.userId, userIdOf(c))).limit(1);
    if (existing) throw keyExists();
    const fresh = await newApiKey();
    let row: ApiKeyRecord;
    try {
      [row] = await scope.insert({ userId: userIdOf(c), name: fresh.name, note: c.req.valid('json').note, keyHash: fresh.keyHash });
    } catch (err) {
      if (isUniqueViolation(err)) throw keyExists();
      throw err;
    }
    await recordActivity(c, 'api_key', row.id, 'create', changedFields(null, { name: row.name, note: row.note }));
    return c.json({ data: presentApiKey(row, fresh.key) }, 201);
  })
  .put('/:id', validJson(apiKeyNoteSchema), async (c) => {
    const before = await ownApiKey(c);
    const { note } = c.req.valid('json');
    const [after] = await new TenantScope(c.var.db, apiKeys, c.var.org.id).update(eq(apiKeys.id, before.id), {
      note,
      updatedAt: new Date().toISOString(),
    });
    await recordActivity(c, 'api_key', before.id, 'update', changedFields({ note: before.note }, { note: after.note }));
    return c.json({ data: presentApiKey(after as ApiKeyRecord) });
  })
  .post('/:id/regenerate', async (c) => {
    const before = await ownApiKey(c);
    const fresh = await newApiKey();
    // The old hash is overwritten: the old key stops working with this statement.
    const [after] = await new TenantScope(c.var.db, apiKeys, c.var.org.id).update(eq(apiKeys.id, before.id), {
      keyHash: fresh.keyHash,
      name: fresh.name,
      updatedAt: new Date().toISOString(),
    });
    await recordActivity(c, 'api_key', before.id, 'update', [{ field: 'name', previous: before.name, next: fresh.name }]);
    return c.json({ data: presentApiKey(after as ApiKeyRecord, fresh.key) });
  })
  .delete('/:id', async (c) => {
    const row = await ownApiKey(c);
    await new TenantScope(c.var.db, apiKeys, c.var.org.id).delete(eq(apiKeys.id, row.id));
    await recordActivity(c, 'api_key', row.id, 'delete', changedFields({ name: row.name, note: row.note }, null));
    return c.json({ data: { deleted: 1 } });
  });
