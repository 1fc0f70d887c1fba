import { and, eq, gt, isNull } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { oneTimeCodes, signups, users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError } from '../../lib/api-error';
import { sha256Hex } from '../../lib/tokens';
import { validJson } from '../../lib/validate';
import { AUTH_TYPE_PASSWORD } from '../../shared/contracts/auth';
import { signCompleteSchema } from '../../shared/contracts/signup';
import { MESSAGES } from '../../shared/messages';
import { openSession } from '../auth/sessions';
import { SIGN_COMPLETE_PURPOSE } from './confirm';

/** /internal-user/sign-complete (new organisation's host): the emailed completion link. */
export const signCompleteRoutes = new Hono<AppEnv>().post('/sign-complete', validJson(signCompleteSchema), async (c) => {
  const { code } = c.req.valid('json');
  const org = c.var.org;
  const now = new Date().toISOString();
  // Using the code is one conditional UPDATE: of two requests with the same code only one gets the row back.
  const [used] = await new TenantScope(c.var.db, oneTimeCodes, org.id).update(
    and(
      eq(oneTimeCodes.codeHash, await sha256Hex(code)),
      eq(oneTimeCodes.purpose, SIGN_COMPLETE_PURPOSE),
      isNull(oneTimeCodes.usedAt),
      gt(oneTimeCodes.expiresAt, now),
    )!,
    { usedAt: now },
  );
  if (!used) throw new ApiError(400, 'link_invalid', MESSAGES.signCompleteInvalid);
  await new TenantScope(c.var.db, users, org.id).update(eq(users.id, used.userId), { registrationPending: false, updatedAt: now });
  await c.var.db
    .update(signups)
    // The user row has the password hash now; the sign-up record need not keep a copy.
    .set({ status: 'completed', passwordHash: '', updatedAt: now })
    .where(and(eq(signups.orgId, org.id), eq(signups.userId, used.userId), eq(signups.status, 'paid')));
  // Same shape as /internal-auth/token-create: the console stores it and is signed in.
  return c.json(await openSession(c, used.userId, AUTH_TYPE_PASSWORD));
});
