import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { sessions } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';

type Ctx = Context<AppEnv>;

/** Conditions of a live session of one user: theirs, in this organisation, not revoked, not expired. */
function liveOf(c: Ctx, userId: number) {
  return new TenantScope(c.var.db, sessions, c.var.org.id).where(
    eq(sessions.userId, userId),
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, new Date().toISOString()),
  );
}

/** The user's live sessions, newest first. */
export function liveSessions(c: Ctx, userId: number) {
  return c.var.db.select().from(sessions).where(liveOf(c, userId)).orderBy(desc(sessions.createdAt), desc(sessions.id));
}

/**
 * Revokes live sessions of the user: those in `ids` (others' ids simply match nothing), or all of them but
 * `except` when no ids are given. Returns the revoked ids.
 */
export async function revokeUserSessions(c: Ctx, userId: number, options: { ids?: readonly string[]; except?: string | null } = {}): Promise<string[]> {
  const now = new Date().toISOString();
  const rows = await c.var.db
    .update(sessions)
    .set({ revokedAt: now, updatedAt: now })
    .where(
      and(
        liveOf(c, userId),
        options.ids ? sql`${sessions.id} IN (SELECT value FROM json_each(${JSON.stringify(options.ids)}))` : undefined,
        options.except ? ne(sessions.id, options.except) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}
