import { and, asc, eq, sql } from 'drizzle-orm';
import { listMeta, listTotalCap, totalQuery, type KeptCount } from '../stats/list-counts';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { runnerOf } from './runner';
import type { AppEnv } from '../../context';
import { broadcasts, messages, organizations } from '../../db/schema';
import { requestBroadcastLedger } from '../ledger/request-ledger';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError } from '../../lib/api-error';
import { validJson, validQuery } from '../../lib/validate';
import {
  BROADCAST_ACTIONS,
  BROADCAST_MESSAGES,
  BROADCAST_STATUSES,
  BROADCAST_TYPES,
  broadcastInputSchema,
  recipientListFilterShape,
  recipientsPreviewSchema,
  type Broadcast,
  type BroadcastAction,
  type BroadcastInput,
  type BroadcastRecipient,
  type BroadcastStatus,
  type RecipientStatus,
} from '../../shared/contracts/broadcast';
import { listQuerySchema, PAGE_SIZE_DEFAULT, type ListResponse } from '../../shared/list';
import { messageOutcome, type DeliveryStatus } from '../../shared/contracts/message';
import { outcomeCondition } from '../message/outcome-filter';
import { recordActivity } from '../activity-log/record';
import { crudRoutes } from '../crud/crud-routes';
import { searchCondition } from '../crud/list-filter';
import { rowOr404 } from '../crud/rows';
import { presentBroadcasts } from './present';
import { previewRecipients } from './preview';
import { currentBroadcast, type BroadcastRow } from './run-store';
import { applyAction } from './lifecycle';
import { validateBroadcast } from './validate';

// /broadcast: list, read and create (no edit: a broadcast is a send, not a draft), the recipients preview,
// the user's actions, and the recipients of one broadcast. Routes validate, write and hand the broadcast to its
// BroadcastRunner (runner.ts); they never send.

type Ctx = Context<AppEnv>;

/** Hands the broadcast to its runner. If that fails, the cron wakes it later (wakeStalledBroadcasts). */
async function wake(c: Ctx, id: number, redispatch = false): Promise<void> {
  try {
    await runnerOf(c.env, id).wake({ orgId: c.var.org.id, broadcastId: id }, { redispatch });
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', broadcast: id, wake: String(error) }));
  }
}

async function createBroadcast(c: Ctx, input: BroadcastInput): Promise<BroadcastRow> {
  const scheduled = input.delayed_at !== null && Date.parse(input.delayed_at) > Date.now();
  const [org] = await c.var.db
    .select({ opens: organizations.trackOpens, clicks: organizations.trackClicks })
    .from(organizations)
    .where(eq(organizations.id, c.var.org.id));
  const [row] = await new TenantScope(c.var.db, broadcasts, c.var.org.id).insert({
    name: input.name,
    alias: input.alias,
    note: input.note,
    type: input.type,
    status: scheduled ? 'waiting' : 'queued',
    senderId: input.sender_id,
    templateId: input.template_id,
    subscriptionId: input.do_not_unsubscribe ? null : (input.subscription_id ?? null),
    doNotUnsubscribe: input.do_not_unsubscribe,
    skipUnsubscribed: input.contacts.filter.skip_unsubscribed ?? true,
    trackOpens: input.track_opens ?? org?.opens ?? true,
    trackClicks: input.track_clicks ?? org?.clicks ?? true,
    sleep: input.sleep,
    delayedAt: input.delayed_at,
    contacts: input.contacts,
  });
  await wake(c, row.id);
  return row;
}

const crud = crudRoutes<typeof broadcasts, BroadcastInput, Broadcast>({
  table: broadcasts,
  input: broadcastInputSchema as unknown as z.ZodObject<z.ZodRawShape, z.core.$strict>,
  only: ['list', 'read', 'create'],
  sortable: {
    created_at: broadcasts.createdAt,
    id: broadcasts.id,
    name: broadcasts.name,
    status: broadcasts.status,
    started_at: broadcasts.startedAt,
    finished_at: broadcasts.finishedAt,
  },
  defaultSort: { key: 'created_at', order: 'desc' },
  search: [broadcasts.name, broadcasts.alias],
  filters: {
    shape: {
      status: z.enum(BROADCAST_STATUSES, { error: `status must be one of: ${BROADCAST_STATUSES.join(', ')}` }).optional(),
      type: z.enum(BROADCAST_TYPES, { error: `type must be one of: ${BROADCAST_TYPES.join(', ')}` }).optional(),
    },
    where: (f) => [f.status ? eq(broadcasts.status, f.status as BroadcastStatus) : undefined, f.type ? eq(broadcasts.type, f.type as string) : undefined],
  },
  audit: 'broadcast',
  validate: (c, input) => validateBroadcast(c, input as BroadcastInput),
  write: {
    create: (c, input) => createBroadcast(c, input),
    // Never mounted (`only` leaves update out): a broadcast is a send, not a draft.
    update: async () => {
      throw new ApiError(409, 'conflict', 'Broadcasts cannot be edited');
    },
  },
  present: presentBroadcasts,
});

const recipientsQuery = listQuerySchema(['id']).extend(recipientListFilterShape);

export const broadcastRoutes = new Hono<AppEnv>()
  // The form's live count and sample of the recipients.
  .post('/preview', validJson(recipientsPreviewSchema), async (c) => {
    const input = c.req.valid('json');
    const preview = await previewRecipients(c.var.db, {
      orgId: c.var.org.id,
      type: input.type,
      recipients: input.contacts,
      subscriptionId: input.subscription_id ?? null,
      skipUnsubscribed: input.contacts.filter.skip_unsubscribed ?? true,
    });
    return c.json({ data: preview });
  })
  .post(`/:id/:action{${BROADCAST_ACTIONS.join('|')}}`, async (c) => {
    const existing = await rowOr404(c, broadcasts);
    const action = c.req.param('action') as BroadcastAction;
    const ledgerOf = (b: BroadcastRow) => requestBroadcastLedger(c, b);
    const row = await applyAction(c.var.db, ledgerOf, c.var.org.id, existing.id, action);
    if (!row) {
      const now = (await currentBroadcast(c.var.db, ledgerOf, c.var.org.id, existing.id))?.status as BroadcastStatus;
      throw new ApiError(
        409,
        'invalid_transition',
        action === 'retry-failed' && now === 'finished' ? BROADCAST_MESSAGES.nothingToRetry : BROADCAST_MESSAGES.transition(action, now),
      );
    }
    await wake(c, row.id, action === 'resume' || action === 'retry-failed');
    await recordActivity(c, 'broadcast', row.id, 'update', [{ field: 'status', previous: existing.status, next: row.status }]);
    const [data] = await presentBroadcasts(c, [row]);
    return c.json({ data });
  })
  .get('/:id/recipients', validQuery(recipientsQuery), async (c) => {
    const b = await rowOr404(c, broadcasts);
    const query = c.req.valid('query');
    const page = query.page ?? 1;
    const pageSize = query.page_size ?? PAGE_SIZE_DEFAULT;
    // The recipients are the broadcast's messages, in its ledger (with the contact's name as it was).
    const ledger = await requestBroadcastLedger(c, b);
    const where = and(
      eq(messages.orgId, c.var.org.id),
      eq(messages.broadcastId, b.id),
      query.status === 'queued' ? sql`${messages.status} IN ('queued', 'sending')` : query.status ? eq(messages.status, query.status) : undefined,
      query.outcome ? outcomeCondition(query.outcome) : undefined,
      searchCondition([messages.toAddress, messages.contactName], query.search),
    );
    // All of the broadcast's recipients: the count kept with its messages; a status, an outcome or a search: counted to the cap.
    const kept: KeptCount | null = query.status || query.outcome || query.search ? null : { list: 'broadcast_messages', key: b.id };
    const cap = listTotalCap(c.env);
    const matches = () =>
      ledger
        .select({ one: sql<number>`1`.as('one') })
        .from(messages)
        .where(where);
    const [totals, rows] = await ledger.batch([
      totalQuery(ledger, c.var.org.id, kept, matches, cap),
      ledger
        .select({
          id: messages.id,
          contactId: messages.contactId,
          name: messages.contactName,
          address: messages.toAddress,
          status: messages.status,
          error: messages.error,
          sentAt: messages.sentAt,
          deliveryStatus: messages.deliveryStatus,
          deliveryErrorCode: messages.deliveryErrorCode,
        })
        .from(messages)
        .where(where)
        .orderBy(asc(messages.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    ]);
    const body: ListResponse<BroadcastRecipient> = {
      items: rows.map((r) => ({
        message_id: r.id,
        contact_id: r.contactId,
        contact_name: r.name,
        address: r.address,
        status: (r.status === 'sending' ? 'queued' : r.status) as RecipientStatus,
        outcome: messageOutcome(r.status, r.deliveryStatus),
        reason: r.error,
        sent_at: r.sentAt,
        delivery_status: (r.deliveryStatus as DeliveryStatus | null) ?? null,
        delivery_error_code: r.deliveryErrorCode ?? null,
      })),
      meta: listMeta(totals[0]?.total, kept, cap, page, pageSize),
    };
    return c.json(body);
  })
  .route('/', crud);
