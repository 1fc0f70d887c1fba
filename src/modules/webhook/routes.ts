import { asc, count, eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../context';
import { webhookEndpoints } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError, notFound, validationFailed } from '../../lib/api-error';
import { parseId, validJson, validQuery } from '../../lib/validate';
import type { ListResponse } from '../../shared/list';
import {
  ENDPOINTS_PER_ORG_MAX,
  type Endpoint,
  REPLAY_WINDOW_MS,
  WEBHOOK_MESSAGES,
  deliveriesQuerySchema,
  endpointCreateSchema,
  endpointUpdateSchema,
  replaySinceSchema,
} from '../../shared/contracts/webhook';
import { changedFields, recordActivity } from '../activity-log/record';
import { checkEndpointUrl } from './address-rules';
import { listDeliveries, replayDelivery, replaySince } from './deliveries';
import { type EndpointRow, createValues, rotationValues, updateValues } from './endpoint-store';
import { mirrorEndpoint } from './mirror';
import { presentEndpoint } from './present';
import { newEndpointSecret } from './secrets';
import { sendTestEvent } from './test-event';

type Ctx = Context<AppEnv>;

/** The activity log's name for webhook endpoints (their API path). */
export const WEBHOOK_ENTITY = 'webhooks';

const scopeOf = (c: Ctx) => new TenantScope(c.var.db, webhookEndpoints, c.var.org.id);

/** The organisation's endpoint the path id names; another organisation's (or none) is a 404. */
async function endpointOfRoute(c: Ctx): Promise<EndpointRow> {
  const id = parseId(c.req.param('id'));
  const row = id === null ? undefined : await scopeOf(c).findById(id);
  if (!row) throw notFound();
  return row;
}

/** A URL the address rules refuse is a 422 on `url` (no DNS here: every attempt resolves the name again). */
async function requireAllowedUrl(c: Ctx, url: string): Promise<void> {
  const verdict = await checkEndpointUrl(c.env, url, { resolve: false });
  if (!verdict.ok) throw validationFailed({ url: [verdict.message] });
}

/** What the delivery side's mirror of the endpoint (in every ledger of the organisation) needs to know. */
const mirrorOf = (row: EndpointRow) => ({ id: row.id, eventTypes: row.eventTypes, enabled: row.enabled, batch: row.batch, since: row.createdAt });

/** What the activity log shows of an endpoint: no secret, no header values. */
const logged = (e: Endpoint) => ({
  url: e.url,
  description: e.description,
  event_types: e.event_types,
  headers: Object.keys(e.headers),
  enabled: e.enabled,
  batch: e.batch,
});

/**
 * /webhooks: the organisation's webhook endpoints (issue 38), guarded like the integrations (any signed-in caller of
 * the organisation; an organisation key by its scope). The signing secret is answered only by create and
 * rotate-secret; every change is mirrored into the organisation's ledgers, where the deliveries are made.
 */
export const webhookRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const rows = (await scopeOf(c).selectWhere().orderBy(asc(webhookEndpoints.id))) as EndpointRow[];
    const items = await Promise.all(rows.map((row) => presentEndpoint(c.env, row)));
    const body: ListResponse<Endpoint> = { items, meta: { total: items.length, page: 1, page_size: items.length, total_pages: 1 } };
    return c.json(body);
  })
  .post('/', validJson(endpointCreateSchema), async (c) => {
    const input = c.req.valid('json');
    await requireAllowedUrl(c, input.url);
    const [{ n }] = await c.var.db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.orgId, c.var.org.id));
    if (n >= ENDPOINTS_PER_ORG_MAX) throw new ApiError(409, 'limit', WEBHOOK_MESSAGES.limit);
    const secret = newEndpointSecret();
    const [row] = (await scopeOf(c).insert(await createValues(c.env, input, secret))) as EndpointRow[];
    await mirrorEndpoint(c.env, c.var.db, c.var.org.id, mirrorOf(row));
    const endpoint = await presentEndpoint(c.env, row);
    await recordActivity(c, WEBHOOK_ENTITY, row.id, 'create', changedFields(null, logged(endpoint)));
    return c.json({ data: { ...endpoint, secret } }, 201);
  })
  .get('/:id', async (c) => c.json({ data: await presentEndpoint(c.env, await endpointOfRoute(c)) }))
  .patch('/:id', validJson(endpointUpdateSchema), async (c) => {
    const input = c.req.valid('json');
    const before = await endpointOfRoute(c);
    if (input.url !== undefined) await requireAllowedUrl(c, input.url);
    const [row] = await scopeOf(c).update(eq(webhookEndpoints.id, before.id), await updateValues(c.env, before, input));
    if (!row) throw notFound();
    await mirrorEndpoint(c.env, c.var.db, c.var.org.id, mirrorOf(row));
    const endpoint = await presentEndpoint(c.env, row);
    await recordActivity(c, WEBHOOK_ENTITY, row.id, 'update', changedFields(logged(await presentEndpoint(c.env, before)), logged(endpoint)));
    return c.json({ data: endpoint });
  })
  .delete('/:id', async (c) => {
    const row = await endpointOfRoute(c);
    await scopeOf(c).delete(eq(webhookEndpoints.id, row.id));
    await mirrorEndpoint(c.env, c.var.db, c.var.org.id, { id: row.id, deleted: true });
    await recordActivity(c, WEBHOOK_ENTITY, row.id, 'delete', changedFields(logged(await presentEndpoint(c.env, row)), null));
    return c.json({ data: { deleted: 1 } });
  })
  .post('/:id/rotate-secret', async (c) => {
    const before = await endpointOfRoute(c);
    const secret = newEndpointSecret();
    const [row] = await scopeOf(c).update(eq(webhookEndpoints.id, before.id), await rotationValues(c.env, before, secret));
    if (!row) throw notFound();
    await recordActivity(c, WEBHOOK_ENTITY, row.id, 'update', [{ field: 'secret', previous: null, next: '(rotated)' }]);
    return c.json({ data: { ...(await presentEndpoint(c.env, row)), secret } });
  })
  .post('/:id/test', async (c) => {
    const row = await endpointOfRoute(c);
    const result = await sendTestEvent(c.env, row);
    return c.json({ data: { status: result.status ?? null, ms: Math.round(result.ms), error: result.error ?? null } });
  })
  .get('/:id/deliveries', validQuery(deliveriesQuerySchema), async (c) => {
    const row = await endpointOfRoute(c);
    const query = c.req.valid('query');
    return c.json(await listDeliveries(c.env, c.var.db, c.var.org.id, row.id, query));
  })
  .post('/:id/deliveries/:eventId/replay', async (c) => {
    const row = await endpointOfRoute(c);
    const eventId = c.req.param('eventId');
    if (!/^evt_[0-9a-f]{32}$/.test(eventId)) throw notFound();
    const answer = await replayDelivery(c.env, c.var.db, c.var.org.id, row.id, eventId);
    // No such event in the stream (or not of the endpoint's types): nothing to deliver again.
    if (answer.replayed === 0) throw notFound();
    return c.json({ data: answer });
  })
  .post('/:id/replay', validJson(replaySinceSchema), async (c) => {
    const row = await endpointOfRoute(c);
    const since = Date.parse(c.req.valid('json').since);
    const now = Date.now();
    if (since < now - REPLAY_WINDOW_MS || since > now) throw validationFailed({ since: [WEBHOOK_MESSAGES.since] });
    return c.json({ data: await replaySince(c.env, c.var.db, c.var.org.id, row.id, new Date(since).toISOString()) });
  });
