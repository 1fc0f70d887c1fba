import { Hono } from 'hono';
import { isDemoOrganization } from '../demo/demo-info';
import { z } from 'zod';
import type { AppEnv } from '../../context';
import type { sessions } from '../../db/schema';
import { notFound } from '../../lib/api-error';
import { requireSession, sessionIdOf, userIdOf } from '../../middleware/auth';
import { validJson } from '../../lib/validate';
import type { SessionRow } from '../../shared/contracts/account';
import type { ListResponse } from '../../shared/list';
import { MESSAGES } from '../../shared/messages';
import { recordActivity } from '../activity-log/record';
import { liveSessions, revokeUserSessions } from './user-sessions';

/** DELETE /session body: the sessions to end. Ids that are not the caller's own live sessions are ignored. */
export const sessionRevokeSchema = z
  .object({
    ids: z
      .array(z.string({ error: 'ids must be strings' }).trim().min(1).max(64))
      .min(1, MESSAGES.requiredList)
      .max(100, 'At most 100 sessions at once'),
  })
  .strict();

/** A session as the session list shows it. */
export function presentSession(row: typeof sessions.$inferSelect, currentId: string | null): SessionRow {
  return {
    id: row.id,
    device: row.device,
    user_agent: row.userAgent,
    ip: row.ip,
    expires_at: row.expiresAt,
    refreshes_at: row.refreshesAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    current: row.id === currentId,
    loggedIn: row.id === currentId,
  };
}

const revokedChanges = (ids: string[]) => ids.map((id) => ({ field: 'revoked', previous: null, next: id }));

/**
 * /session: the current user's live sessions (app.ts requires a signed-in caller; these routes need a
 * console session, not an API key). Not paged on the server: the list is short.
 */
export const sessionRoutes = new Hono<AppEnv>()
  .use('*', requireSession)
  .get('/', async (c) => {
    const current = sessionIdOf(c);
    // Every visitor of the shared demo signs in as the same user: show each only their own session.
    const rows = (await liveSessions(c, userIdOf(c))).filter((row) => !isDemoOrganization(c.var.org.domain) || row.id === current);
    const body: ListResponse<SessionRow> = {
      items: rows.map((row) => presentSession(row, current)),
      meta: { total: rows.length, page: 1, page_size: rows.length, total_pages: 1 },
    };
    return c.json(body);
  })
  .delete('/:id', async (c) => {
    const revoked = await revokeUserSessions(c, userIdOf(c), { ids: [c.req.param('id')] });
    if (revoked.length === 0) throw notFound();
    await recordActivity(c, 'session', null, 'update', revokedChanges(revoked));
    return c.json({ data: { deleted: 1 } });
  })
  .delete('/', validJson(sessionRevokeSchema), async (c) => {
    const revoked = await revokeUserSessions(c, userIdOf(c), { ids: c.req.valid('json').ids });
    await recordActivity(c, 'session', null, 'update', revokedChanges(revoked));
    return c.json({ data: { deleted: revoked.length } });
  });
