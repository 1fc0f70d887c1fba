import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../context';
import { integrations } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError, notFound } from '../../lib/api-error';
import { validJsonBy } from '../../lib/validate';
import {
  INTEGRATION_MESSAGES,
  INTEGRATION_STATUSES,
  INTEGRATION_TYPES,
  integrationInputSchema,
  integrationUpdateSchema,
  smtpCredentialsSchema,
  twilioCredentialsSchema,
  type Integration,
  type IntegrationInput,
  type IntegrationType,
  type IntegrationUpdate,
} from '../../shared/contracts/integration';
import { recordActivity } from '../activity-log/record';
import { crudRoutes } from '../crud/crud-routes';
import { nextPriority, rowOr404 } from '../crud/rows';
import { presentIntegration, providerAccount, sealSecret, type StoredDetails } from './account';
import { providers } from './providers';
import { requestSync } from './sync';

type Ctx = Context<AppEnv>;
type Row = typeof integrations.$inferSelect;
const scopeOf = (c: Ctx) => new TenantScope(c.var.db, integrations, c.var.org.id);

async function createIntegration(c: Ctx, input: IntegrationInput): Promise<Row> {
  const smtp = input.type === 'smtp';
  const details: StoredDetails = smtp
    ? {
        server: input.details!.server!,
        port: input.details!.port!,
        ssl: input.details?.ssl ?? false,
        tls: input.details?.tls ?? false,
        domain: input.details?.domain ?? null,
        return_path: input.details?.return_path ?? null,
        sendgrid_verification_key: input.details?.sendgrid_verification_key ?? null,
        user: input.user!,
      }
    : { sid: input.sid! };
  const [row] = await scopeOf(c).insert({
    name: input.name,
    type: input.type,
    note: input.note ?? null,
    details,
    secret: await sealSecret(c.env, input.type, smtp ? input.password! : input.token!.trim()),
    shouldMerge: input.should_merge ?? true,
    maxRate: input.max_rate ?? null,
    dkimSigning: input.dkim_signing ?? true,
    priority: nextPriority(integrations, integrations.priority, c.var.org.id) as unknown as number,
  });
  return row;
}

async function updateIntegration(c: Ctx, existing: Row, input: Partial<IntegrationUpdate>): Promise<Row> {
  const values: Partial<typeof integrations.$inferInsert> = { updatedAt: new Date().toISOString() };
  if (input.name !== undefined) values.name = input.name;
  if (input.note !== undefined) values.note = input.note;
  if (input.should_merge !== undefined) values.shouldMerge = input.should_merge;
  if (input.max_rate !== undefined) values.maxRate = input.max_rate;
  if (input.dkim_signing !== undefined) values.dkimSigning = input.dkim_signing;
  // Only smtp integrations have editable connection details; twilio's sid changes with its credentials.
  if (existing.type === 'smtp' && input.details) {
    const given = Object.fromEntries(Object.entries(input.details).filter(([, v]) => v !== undefined));
    values.details = { ...(existing.details as StoredDetails), ...given };
  }
  const [row] = await scopeOf(c).update(eq(integrations.id, existing.id), values);
  return row;
}

const crud = crudRoutes<typeof integrations, IntegrationInput & IntegrationUpdate, Integration>({
  table: integrations,
  input: integrationInputSchema,
  updateInput: integrationUpdateSchema,
  sortable: {
    priority: integrations.priority,
    id: integrations.id,
    name: integrations.name,
    type: integrations.type,
    status: integrations.status,
    created_at: integrations.createdAt,
    updated_at: integrations.updatedAt,
  },
  defaultSort: { key: 'priority', order: 'asc' },
  search: [integrations.name, integrations.note],
  priority: integrations.priority,
  filters: {
    shape: {
      type: z.enum(INTEGRATION_TYPES, { error: INTEGRATION_MESSAGES.type }).optional(),
      status: z.enum(INTEGRATION_STATUSES, { error: 'status must be active or merging' }).optional(),
    },
    where: (f) => [f.type ? eq(integrations.type, f.type as string) : undefined, f.status ? eq(integrations.status, f.status as string) : undefined],
  },
  audit: 'integration',
  typeSegment: { field: 'type', values: INTEGRATION_TYPES },
  write: { create: createIntegration, update: updateIntegration },
  present: (c, rows) => rows.map((row) => presentIntegration(c.env, row)),
});

/** Credentials body by the type in the path: user + password (smtp) or sid + token (twilio). */
const credentialsBody = validJsonBy((value, c) => {
  const schema = c.req.param('type') === 'smtp' ? smtpCredentialsSchema : twilioCredentialsSchema;
  return schema.safeParse(value) as
    | { success: true; data: { user?: string; password?: string; sid?: string; token?: string } }
    | { success: false; error: z.ZodError };
});

/** /integration: the shared contract (with optional type segment), plus credentials, sync and connection test. */
export const integrationRoutes = new Hono<AppEnv>()
  .patch('/:id/:type{smtp|twilio}/credentials', credentialsBody, async (c) => {
    const existing = await rowOr404(c, integrations);
    if (existing.type !== c.req.param('type')) throw notFound();
    const body = c.req.valid('json');
    const smtp = existing.type === 'smtp';
    const details = { ...(existing.details as StoredDetails), ...(smtp ? { user: body.user } : { sid: body.sid }) };
    const secret = await sealSecret(c.env, existing.type as IntegrationType, smtp ? body.password! : body.token!.trim());
    const [updated] = await scopeOf(c).update(eq(integrations.id, existing.id), { details, secret, updatedAt: new Date().toISOString() });
    const identity = smtp ? 'user' : 'sid';
    const before = (existing.details as StoredDetails)[identity] ?? null;
    await recordActivity(c, 'integration', existing.id, 'update', [
      ...(before !== details[identity] ? [{ field: identity, previous: before, next: details[identity] ?? null }] : []),
      { field: smtp ? 'password' : 'token', previous: null, next: '(changed)' },
    ]);
    return c.json({ data: presentIntegration(c.env, updated) });
  })
  .post('/:id/sync', async (c) => {
    const existing = await rowOr404(c, integrations);
    if (existing.type === 'smtp') throw new ApiError(400, 'bad_request', INTEGRATION_MESSAGES.syncSmtp);
    const row = await requestSync(c.var.db, c.env, c.var.org.id, existing.id);
    return c.json({ data: presentIntegration(c.env, row) }, 202);
  })
  .post('/:id/test', async (c) => {
    const existing = await rowOr404(c, integrations);
    try {
      return c.json({ data: await providers.testConnection(await providerAccount(c.env, existing), c.env) });
    } catch (error) {
      // The test reports in words; a failure to run it is a result too, never a 500.
      const message = error instanceof Error ? error.message : String(error);
      return c.json({ data: { ok: false, code: 'error', message, server_reply: null } });
    }
  })
  .route('/', crud);
