import { and, eq, ne } from 'drizzle-orm';
import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../../context';
import { users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import type { profileUpdateSchema } from '../../shared/contracts/account';
import { MESSAGES } from '../../shared/messages';
import { changedFields, recordActivity } from '../activity-log/record';
import type { UserRow } from './own-user';

type Ctx = Context<AppEnv>;
type ProfileInput = z.infer<typeof profileUpdateSchema>;

const isUniqueViolation = (err: unknown) => /UNIQUE constraint failed/i.test(String((err as Error)?.message ?? err));

/**
 * Updates the user's name and login. An email sets both the login (lower-cased) and the email; a username
 * (simple-sign mode) sets the login only. A login another user of the organisation has is a 422.
 */
export async function updateProfile(c: Ctx, user: UserRow, input: ProfileInput): Promise<void> {
  const field = input.email !== undefined ? 'email' : input.username !== undefined ? 'username' : null;
  if (!field) throw validationFailed({ email: [MESSAGES.required] });
  const login = (input.email ?? input.username ?? '').toLowerCase();
  const next = { name: input.name, username: login, email: field === 'email' ? (input.email as string) : user.email };

  const scope = new TenantScope(c.var.db, users, c.var.org.id);
  const [taken] = await scope.selectWhere(and(eq(users.username, login), ne(users.id, user.id))).limit(1);
  if (taken) throw validationFailed({ [field]: [MESSAGES.duplicate] });
  try {
    await scope.update(eq(users.id, user.id), { ...next, updatedAt: new Date().toISOString() });
  } catch (err) {
    // Another request took the login between the check and the write.
    if (isUniqueViolation(err)) throw validationFailed({ [field]: [MESSAGES.duplicate] });
    throw err;
  }
  const before = { name: user.name, username: user.username, email: user.email };
  await recordActivity(c, 'user', user.id, 'update', changedFields(before, next));
}
