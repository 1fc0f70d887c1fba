import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError } from '../../lib/api-error';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, validSendGridSignature } from '../../lib/sendgrid/event-signature';
import type { StoredDetails } from '../integration/account';
import { hookIntegration, webhookForbidden } from '../integration/hook-integration';
import { applyDeliveryReport } from './apply';
import { readSendGridEvent } from './sendgrid-events';

// POST /hooks/sendgrid/{integrationId}/events: SendGrid's signed Event Webhook for one SMTP integration, for customers
// whose SMTP provider reports bounces and spam reports by HTTP instead of by mail. No session: the body must carry
// SendGrid's signature under the integration's verification key, so an event signed for one organisation's account
// never touches another's messages (the organisation is the integration's, and each event's message must be that
// organisation's email to that address). A replayed request changes nothing more (applying a report is idempotent);
// one signed more than a day ago (SendGrid retries for 24 hours) is refused.

/** SendGrid posts events in batches; a body past this is not SendGrid's. */
const MAX_BODY = 2 * 1024 * 1024;
/** How far a signed timestamp may be from now. */
export const SIGNATURE_MAX_AGE_S = 24 * 60 * 60;

export const sendGridHookRoutes = new Hono<AppEnv>().post('/:integrationId/events', async (c) => {
  const row = await hookIntegration(c, 'smtp');
  const body = await c.req.text();
  if (body.length > MAX_BODY) throw new ApiError(413, 'bad_request', 'The request body is too large');
  const key = (row.details as StoredDetails).sendgrid_verification_key ?? '';
  const timestamp = c.req.header(TIMESTAMP_HEADER);
  if (!key || !(await validSendGridSignature(key, body, c.req.header(SIGNATURE_HEADER), timestamp))) throw webhookForbidden();
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > SIGNATURE_MAX_AGE_S || !/^\d{1,12}$/.test(timestamp ?? '')) {
    throw new ApiError(403, 'webhook_invalid', 'The signature is more than a day old: a replayed request is refused');
  }
  let events: unknown;
  try {
    events = JSON.parse(body);
  } catch {
    throw new ApiError(400, 'bad_request', 'The body is not a JSON array of events');
  }
  if (!Array.isArray(events)) throw new ApiError(400, 'bad_request', 'The body is not a JSON array of events');
  let applied = 0;
  for (const raw of events) {
    const event = readSendGridEvent(raw);
    if (event && (await applyDeliveryReport(c.env, { orgId: row.orgId, messageId: event.messageId }, event.report, event.email))) applied++;
  }
  console.log(JSON.stringify({ level: 'info', job: 'sendgrid-events', integrationId: row.id, orgId: row.orgId, received: events.length, applied }));
  return c.json({ data: { received: events.length, applied } });
});
