import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { apiKeys } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { notFound } from '../../lib/api-error';
import { parseId } from '../../lib/validate';
import { userIdOf } from '../../middleware/auth';
import { randomToken, sha256Hex } from '../../lib/tokens';
import type { ApiKeyRow } from '../../shared/contracts/account';

type Ctx = Context<AppEnv>;
export type ApiKeyRecord = typeof apiKeys.$inferSelect;

/** A new secret key (`rk_` + 32 random bytes) with what is stored of it: its hash and a visible prefix. */
export async function newApiKey(): Promise<{ key: string; keyHash: string; name: string }> {
  const key = `rk_${randomToken()}`;
  return { key, keyHash: await sha256Hex(key), name: `${key.slice(0, 10)}…` };
}

/** A key as the API answers it; the secret only when it was just made (shown once). */
export function presentApiKey(row: ApiKeyRecord, key?: string): ApiKeyRow {
  return {
    id: row.id,
    name: row.name,
    note: row.note,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    ...(key ? { key } : {}),
  };
}

/** The caller's own key named by the path id; anyone else's (or none) is a 404. */
export async function ownApiKey(c: Ctx): Promise<ApiKeyRecord> {
  const id = parseId(c.req.param('id'));
  if (id === null) throw notFound();
  const [row] = await new TenantScope(c.var.db, apiKeys, c.var.org.id).selectWhere(eq(apiKeys.userId, userIdOf(c))).limit(1);
  if (!row || row.id !== id) throw notFound();
  return row as ApiKeyRecord;
}
