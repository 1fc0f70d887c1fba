import { desc, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { orgApiKeys, users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { notFound } from '../../lib/api-error';
import { parseId, validJson } from '../../lib/validate';
import { requireSession, userIdOf } from '../../middleware/auth';
import { orgKeyCreateSchema, type OrgKeyRow } from '../../shared/contracts/org-api-key';
import type { ListResponse } from '../../shared/list';
import { changedFields, recordActivity } from '../activity-log/record';
import { newOrgKey, presentOrgKey, type OrgKeyRecord } from './keys';
import { revokeOrgKey } from './authenticate';

/** The activity log's name for these keys (their API path). */
export const ORG_KEY_ENTITY = 'organization_api_key';

const scopeOf = (c: Context<AppEnv>) => new TenantScope(c.var.db, orgApiKeys, c.var.org.id);

/** Names of the users who made the keys, by id (one read for the whole list). */
async function creatorNames(c: Context<AppEnv>, rows: OrgKeyRecord[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((row) => (row.createdByUserId === null ? [] : [row.createdByUserId])))];
  if (ids.length === 0) return new Map();
  const scope = new TenantScope(c.var.db, users, c.var.org.id);
  const found = await c.var.db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(scope.where(scope.idIn(ids)));
  return new Map(found.map((u) => [u.id, u.name]));
}

/** The organisation's key the path id names; another organisation's (or none) is a 404. */
async function keyOfRoute(c: Context<AppEnv>): Promise<OrgKeyRecord> {
  const id = parseId(c.req.param('id'));
  const row = id === null ? undefined : await scopeOf(c).findById(id);
  if (!row) throw notFound();
  return row as OrgKeyRecord;
}

/**
 * /organization-api-key: the organisation's API keys for its software (issue 36). Managing them needs a console
 * sign-in (an API-key call is a 403), so a leaked key can never mint or revoke keys. The key is answered once, by
 * create, and kept only hashed; revoking stops it at once and keeps it listed as revoked.
 */
export const orgApiKeyRoutes = new Hono<AppEnv>()
  .use('*', requireSession)
  .get('/', async (c) => {
    const rows = (await scopeOf(c).selectWhere().orderBy(desc(orgApiKeys.createdAt), desc(orgApiKeys.id))) as OrgKeyRecord[];
    const names = await creatorNames(c, rows);
    const body: ListResponse<OrgKeyRow> = {
      items: rows.map((row) => presentOrgKey(row, row.createdByUserId === null ? null : (names.get(row.createdByUserId) ?? null))),
      meta: { total: rows.length, page: 1, page_size: rows.length, total_pages: 1 },
    };
    return c.json(body);
  })
  .post('/', validJson(orgKeyCreateSchema), async (c) => {
    const input = c.req.valid('json');
    const userId = userIdOf(c);
    const fresh = await newOrgKey(input.test);
    const [row] = (await scopeOf(c).insert({
      name: input.name,
      scope: input.scope,
      test: input.test,
      prefix: fresh.prefix,
      keyHash: fresh.keyHash,
      createdByUserId: userId,
    })) as OrgKeyRecord[];
    await recordActivity(c, ORG_KEY_ENTITY, row.id, 'create', changedFields(null, { name: row.name, scope: row.scope, test: row.test, prefix: row.prefix }));
    const [creator] = await c.var.db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
    return c.json({ data: presentOrgKey(row, creator?.name ?? null, fresh.key) }, 201);
  })
  .delete('/:id', async (c) => {
    const before = await keyOfRoute(c);
    let row = before;
    // Revoking twice changes nothing and logs nothing: the first revocation's time stays.
    if (!before.revokedAt) {
      const revokedAt = new Date().toISOString();
      [row] = (await scopeOf(c).update(eq(orgApiKeys.id, before.id), { revokedAt, updatedAt: revokedAt })) as OrgKeyRecord[];
      await recordActivity(c, ORG_KEY_ENTITY, row.id, 'update', changedFields({ revoked_at: before.revokedAt }, { revoked_at: row.revokedAt }));
    }
    // Every time, so a revocation whose ledger call failed is finished by the next try.
    await revokeOrgKey(c, row.id);
    const names = await creatorNames(c, [row]);
    return c.json({ data: presentOrgKey(row, row.createdByUserId === null ? null : (names.get(row.createdByUserId) ?? null)) });
  });
