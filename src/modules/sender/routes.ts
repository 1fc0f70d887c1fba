import { eq, inArray } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../context';
import { integrations, sendingDomains, senders } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { addressError, normalizeAddress } from '../../shared/address';
import type { IntegrationType } from '../../shared/contracts/integration';
import {
  SENDER_INTEGRATION,
  SENDER_MESSAGES,
  SENDER_TYPES,
  senderInputSchema,
  senderUpdateSchema,
  type Sender,
  type SenderInput,
  type SenderType,
  type SenderUpdate,
} from '../../shared/contracts/sender';
import { crudRoutes } from '../crud/crud-routes';
import { senderDomainState } from '../domain/sender-state';
import { nextPriority } from '../crud/rows';

type Ctx = Context<AppEnv>;
type Input = SenderInput & SenderUpdate;
type Row = typeof senders.$inferSelect;

/** The integration must be the organisation's and of the kind the sender type sends through; the value must fit the type. */
async function validateSender(c: Ctx, input: Partial<Input>, existing?: Row) {
  const type = (existing?.type ?? input.type) as SenderType;
  if (!existing && input.integration_id !== undefined) {
    const integration = await new TenantScope(c.var.db, integrations, c.var.org.id).findById(input.integration_id);
    if (!integration) throw validationFailed({ integration_id: [SENDER_MESSAGES.integrationNotFound] });
    if (integration.type !== SENDER_INTEGRATION[type]) {
      throw validationFailed({ integration_id: [type === 'email' ? SENDER_MESSAGES.emailNeedsSmtp : SENDER_MESSAGES.phoneNeedsTwilio] });
    }
  }
  if (existing && input.value !== undefined) {
    const problem = addressError(type, input.value);
    if (problem) throw validationFailed({ value: [problem] });
  }
}

function values(input: Partial<Input>, type: SenderType): Partial<typeof senders.$inferInsert> {
  const out: Partial<typeof senders.$inferInsert> = {};
  if (input.value !== undefined) out.value = normalizeAddress(type, input.value);
  if (input.name !== undefined || type === 'phone') out.name = type === 'phone' ? null : input.name;
  if (input.note !== undefined) out.note = input.note;
  return out;
}

async function presentSenders(c: Ctx, rows: Row[]): Promise<Sender[]> {
  const ids = [...new Set(rows.map((r) => r.integrationId))];
  const scope = new TenantScope(c.var.db, integrations, c.var.org.id);
  const linked = ids.length
    ? await c.var.db
        .select({ id: integrations.id, name: integrations.name, type: integrations.type })
        .from(integrations)
        .where(scope.where(inArray(integrations.id, ids)))
    : [];
  const byId = new Map(linked.map((i) => [i.id, { ...i, type: i.type as IntegrationType }]));
  const domains = rows.some((r) => r.type === 'email')
    ? await c.var.db
        .select({ domain: sendingDomains.domain, verifiedAt: sendingDomains.verifiedAt, brokenSince: sendingDomains.brokenSince })
        .from(sendingDomains)
        .where(eq(sendingDomains.orgId, c.var.org.id))
    : [];
  return rows.map((row) => ({
    id: row.id,
    integration_id: row.integrationId,
    integration: byId.get(row.integrationId) ?? null,
    type: row.type as SenderType,
    value: row.value,
    name: row.name,
    note: row.note,
    priority: row.priority,
    domain_state: senderDomainState(row, domains),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}

/** /sender: the shared contract for senders (server-paged, drag-reorderable). */
export const senderRoutes = crudRoutes<typeof senders, Input, Sender>({
  table: senders,
  input: senderInputSchema,
  updateInput: senderUpdateSchema,
  sortable: {
    priority: senders.priority,
    id: senders.id,
    value: senders.value,
    name: senders.name,
    type: senders.type,
    created_at: senders.createdAt,
    updated_at: senders.updatedAt,
  },
  defaultSort: { key: 'priority', order: 'asc' },
  search: [senders.value, senders.name, senders.note],
  priority: senders.priority,
  filters: {
    shape: {
      type: z.enum(SENDER_TYPES, { error: SENDER_MESSAGES.type }).optional(),
      integration_id: z.coerce.number({ error: 'integration_id must be a number' }).int().positive().optional(),
    },
    where: (f) => [
      f.type ? eq(senders.type, f.type as string) : undefined,
      f.integration_id ? eq(senders.integrationId, f.integration_id as number) : undefined,
    ],
  },
  audit: 'sender',
  validate: validateSender,
  write: {
    create: async (c, input) => {
      const scope = new TenantScope(c.var.db, senders, c.var.org.id);
      const type = input.type as SenderType;
      const [row] = await scope.insert({
        integrationId: input.integration_id,
        type,
        value: normalizeAddress(type, input.value),
        name: type === 'phone' ? null : (input.name ?? null),
        note: input.note ?? null,
        priority: nextPriority(senders, senders.priority, c.var.org.id) as unknown as number,
      });
      return row;
    },
    update: async (c, existing, input) => {
      const scope = new TenantScope(c.var.db, senders, c.var.org.id);
      const [row] = await scope.update(eq(senders.id, existing.id), { ...values(input, existing.type as SenderType), updatedAt: new Date().toISOString() });
      return row;
    },
  },
  present: presentSenders,
});
