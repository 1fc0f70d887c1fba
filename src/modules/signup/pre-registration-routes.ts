import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { preRegistrations } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { hit, type Limit } from '../../lib/rate-limit';
import { validJson } from '../../lib/validate';
import { preRegistrationSchema } from '../../shared/contracts/signup';
import { MESSAGES } from '../../shared/messages';
import { readSignupSettings } from '../platform-settings/settings';
import { queueSystemMail } from '../system-mail/queue-mail';
import { preRegistrationReceivedMail } from './mails';

/** Requests one network address may send in an hour. */
export const PRE_REGISTRATIONS_PER_ADDRESS: Limit = { max: 10, windowSeconds: 3600 };
/** Acknowledgement mails one email address receives in a day. */
export const ACKNOWLEDGEMENTS_PER_EMAIL: Limit = { max: 1, windowSeconds: 86_400 };

/** /pre-registration (platform host): requests while registration is paused. */
export const preRegistrationRoutes = new Hono<AppEnv>().post('/', validJson(preRegistrationSchema), async (c) => {
  const input = c.req.valid('json');
  const settings = await readSignupSettings(c.env, c.var.db);
  if (!settings['signup.enabled']) throw new ApiError(404, 'registration_closed', MESSAGES.registrationClosed);
  if (settings['signup.active']) throw new ApiError(409, 'conflict', 'Registration is open: sign up instead.');
  const email = input.email.toLowerCase();
  const ip = c.req.header('cf-connecting-ip') ?? c.req.header('x-forwarded-for') ?? '';
  const fromAddress = await hit(c.var.db, `prereg-ip:${ip}`, PRE_REGISTRATIONS_PER_ADDRESS);
  if (fromAddress.count > PRE_REGISTRATIONS_PER_ADDRESS.max) {
    throw new ApiError(429, 'rate_limited', MESSAGES.rateLimited, undefined, { 'Retry-After': String(fromAddress.retryAfter) });
  }
  const [row] = await c.var.db
    .insert(preRegistrations)
    .values({ name: input.name, email, orgName: input.organization, domain: input.domain ?? null, comments: input.comments })
    .returning();
  // The form mails whatever address it is given: acknowledge each address once a day at most, so it cannot be
  // used to flood someone's mailbox (the requests themselves are all kept for the operator).
  const toAddress = await hit(c.var.db, `prereg-mail:${email}`, ACKNOWLEDGEMENTS_PER_EMAIL);
  if (toAddress.count <= ACKNOWLEDGEMENTS_PER_EMAIL.max) await queueSystemMail(c.env, c.var.db, preRegistrationReceivedMail(email, input.name));
  return c.json({ data: { id: row.id, status: row.status } }, 201);
});
