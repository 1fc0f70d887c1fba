import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../context';
import { notFound } from '../../lib/api-error';
import { parseId, validJson, validQuery } from '../../lib/validate';
import { requireOperator } from '../../middleware/operator';
import { preRegistrationReviewSchema } from '../../shared/contracts/signup';
import { readSignupSettings, signupSettingsUpdateSchema, writeSignupSettings } from '../platform-settings/settings';
import { createOrganization, operatorOrganizationSchema } from './organizations';
import { apiLimitsUpdateSchema, readApiLimits, writeApiLimits } from './api-limits';
import { listPreRegistrations, reviewPreRegistration } from './pre-registrations';
import { listLedgerSizes } from '../ledger/size-guard';
import { listKeptMail, readKeptMail } from '../bounce/kept-mail';

const listQuery = z.object({ status: z.enum(['pending', 'approved', 'declined']).optional() }).strict();
const keptQuery = z.object({ cursor: z.string().max(1000).optional(), limit: z.coerce.number().int().min(1).max(1000).default(100) }).strict();
const ledgersQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }).strict();

/**
 * /operator (platform host, operator token): pre-registration review, platform settings, demo reset, the ledgers' sizes,
 * mail the bounce handler kept, organisations made by hand and the limits of their API keys.
 */
export const operatorRoutes = new Hono<AppEnv>();
operatorRoutes.use('*', requireOperator);
operatorRoutes
  .get('/settings', async (c) => c.json({ data: await readSignupSettings(c.env, c.var.db) }))
  .put('/settings', validJson(signupSettingsUpdateSchema), async (c) => c.json({ data: await writeSignupSettings(c.env, c.var.db, c.req.valid('json')) }))
  .get('/ledgers', validQuery(ledgersQuery), async (c) => c.json({ data: await listLedgerSizes(c.var.db, c.req.valid('query').limit) }))
  .post('/organizations', validJson(operatorOrganizationSchema), async (c) => c.json({ data: await createOrganization(c.var.db, c.req.valid('json')) }, 201))
  .get('/organizations/:domain/api-limits', async (c) => c.json({ data: await readApiLimits(c.var.db, c.req.param('domain')) }))
  .put('/organizations/:domain/api-limits', validJson(apiLimitsUpdateSchema), async (c) =>
    c.json({ data: await writeApiLimits(c.var.db, c.req.param('domain'), c.req.valid('json')) }),
  )
  .get('/unrecognised-mail', validQuery(keptQuery), async (c) => {
    const { cursor, limit } = c.req.valid('query');
    return c.json({ data: await listKeptMail(c.env, cursor, limit) });
  })
  .get('/unrecognised-mail/:day/:file', async (c) => {
    const mail = await readKeptMail(c.env, `${c.req.param('day')}/${c.req.param('file')}`);
    if (!mail) throw notFound();
    return c.body(mail.body, 200, { 'content-type': 'message/rfc822', 'content-disposition': 'attachment' });
  })
  .get('/pre-registrations', validQuery(listQuery), async (c) => c.json({ data: await listPreRegistrations(c.var.db, c.req.valid('query').status) }))
  .post('/pre-registrations/:id/:decision{approve|decline}', validJson(preRegistrationReviewSchema), async (c) => {
    const id = parseId(c.req.param('id'));
    if (!id) throw notFound();
    const decision = c.req.param('decision') === 'approve' ? 'approved' : 'declined';
    const note = c.req.valid('json').note || null;
    return c.json({ data: await reviewPreRegistration(c.env, c.var.db, id, decision, note) });
  });
