import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireAuth, requireSession, sessionIdOf } from '../../middleware/auth';
import { validJson } from '../../lib/validate';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { accountDeleteSchema, languageUpdateSchema, profileUpdateSchema } from '../../shared/contracts/account';
import { passwordRemindSchema, passwordResetSchema, passwordUpdateSchema } from '../../shared/contracts/password';
import { MESSAGES } from '../../shared/messages';
import { loadCurrentUser } from '../auth/current-user';
import { deleteAccount } from './account-delete';
import { ownUser } from './own-user';
import { removePassword, setPassword } from './password-access';
import { requestPasswordReset, resetPassword } from './password-reset';
import { updateProfile } from './profile';

// Middleware is given per route, never with use('*'): this router shares /internal-user with others
// (me, sign-complete), and a sub-app's use('*') would run for their paths too.
const signedIn = [requireAuth, requireSession] as const;

/** /internal-user: password remind/reset (guests), profile, language, password, account deletion (signed in). */
export const accountUserRoutes = new Hono<AppEnv>()
  .post('/password-remind', validJson(passwordRemindSchema), async (c) => {
    await requestPasswordReset(c, c.req.valid('json').email);
    return c.json({ data: { message: MESSAGES.resetRequested } });
  })
  .post('/password-reset', validJson(passwordResetSchema), async (c) => {
    const { code, password } = c.req.valid('json');
    await resetPassword(c, code, password);
    return c.json({ data: { ok: true } });
  })
  .put('/:id/password', ...signedIn, validJson(passwordUpdateSchema), async (c) => {
    const { current_password, password } = c.req.valid('json');
    await setPassword(c, await ownUser(c), current_password, password, sessionIdOf(c));
    return c.json({ data: await loadCurrentUser(c) });
  })
  .delete('/:id/password', ...signedIn, async (c) => {
    await removePassword(c, await ownUser(c));
    return c.json({ data: await loadCurrentUser(c) });
  })
  .put('/:id/language', ...signedIn, validJson(languageUpdateSchema), async (c) => {
    const user = await ownUser(c);
    await new TenantScope(c.var.db, users, c.var.org.id).update(eq(users.id, user.id), { language: c.req.valid('json').language });
    return c.json({ data: await loadCurrentUser(c) });
  })
  .put('/:id', ...signedIn, validJson(profileUpdateSchema), async (c) => {
    await updateProfile(c, await ownUser(c), c.req.valid('json'));
    return c.json({ data: await loadCurrentUser(c) });
  })
  .delete('/:id', ...signedIn, validJson(accountDeleteSchema), async (c) => {
    const result = await deleteAccount(c, await ownUser(c), c.req.valid('json').confirm);
    return c.json({ data: { deleted: true, organization_deleted: result.organizationDeleted } });
  });
