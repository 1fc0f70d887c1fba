import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { preRegistrations } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { validJson } from '../../lib/validate';
import { preRegistrationSchema } from '../../shared/contracts/signup';
import { MESSAGES } from '../../shared/messages';
import { readSignupSettings } from '../platform-settings/settings';
import { queueSystemMail } from '../system-mail/queue-mail';
import { preRegistrationReceivedMail } from './mails';

/** /pre-registration (platform host): requests while registration is paused. */
export const preRegistrationRoutes = new Hono<AppEnv>().post('/', validJson(preRegistrationSchema), async (c) => {
  const input = c.req.valid('json');
  const settings = await readSignupSettings(c.env, c.var.db);
  if (!settings['signup.enabled']) throw new ApiError(404, 'registration_closed', MESSAGES.registrationClosed);
  if (settings['signup.active']) throw new ApiError(409, 'conflict', 'Registration is open: sign up instead.');
  const email = input.email.toLowerCase();
  const [row] = await c.var.db
    .insert(preRegistrations)
    .values({ name: input.name, email, orgName: input.organization, domain: input.domain ?? null, comments: input.comments })
    .returning();
  await queueSystemMail(c.env, c.var.db, preRegistrationReceivedMail(email, input.name));
  return c.json({ data: { id: row.id, status: row.status } }, 201);
});
