import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { ledgerDb } from '../ledger/ledger-db';
import { allLedgers, ledgerOfMessage } from '../ledger/registry';
import { ApiError } from '../../lib/api-error';
import { validTwilioSignature } from '../../lib/sms/twilio-signature';
import { parseId } from '../../lib/validate';
import { providerAccount } from '../integration/account';
import { hookIntegration, webhookForbidden } from '../integration/hook-integration';
import { advanceDeliveryStatus, deliveryStatusOf } from './delivery-status';
import { pushProgress } from './push-progress';
import { optChangeOf, optChangeStatement } from './opt-out';
import { announceAfter } from '../event/announce';
import { receivedSmsStatement } from '../event/outbox';
import { rawBatch } from '../crud/raw-batch';
import { twilioHookUrl, type TwilioHook } from './urls';

// Twilio's calls to us, one URL per integration: POST .../status (delivery receipts of the SMS we sent) and
// POST .../inbound (replies to the integration's numbers). No session: each request must carry Twilio's
// signature made with that integration's auth token, so a callback signed for one organisation's account can
// never touch another's messages or numbers. The organisation is the integration's, never the request's host.

/** Twilio's webhook bodies are a few hundred bytes; anything near this is not Twilio. */
const MAX_BODY = 32 * 1024;

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

interface VerifiedCall {
  orgId: number;
  integrationId: number;
  params: URLSearchParams;
}

/** The integration of the URL, the form body, and a valid X-Twilio-Signature over both; 403/404 otherwise. */
async function verifiedCall(c: Context<AppEnv>, hook: TwilioHook): Promise<VerifiedCall> {
  const row = await hookIntegration(c, 'twilio');
  const text = await c.req.text();
  if (text.length > MAX_BODY) throw new ApiError(413, 'bad_request', 'The request body is too large');
  const params = new URLSearchParams(text);
  let token = '';
  try {
    const account = await providerAccount(c.env, row);
    if (account.type === 'twilio') token = account.token;
  } catch {
    // A secret that cannot be read verifies nothing.
  }
  const query = new URL(c.req.url).search;
  const signed = await validTwilioSignature(token, twilioHookUrl(c.env, row.id, hook) + query, params, c.req.header('x-twilio-signature'));
  if (!signed) throw webhookForbidden();
  return { orgId: row.orgId, integrationId: row.id, params };
}

export const twilioHookRoutes = new Hono<AppEnv>()
  .post('/:integrationId/status', async (c) => {
    const { orgId, params } = await verifiedCall(c, 'status');
    const sid = params.get('MessageSid') ?? params.get('SmsSid');
    const status = deliveryStatusOf(params.get('MessageStatus') ?? params.get('SmsStatus'));
    const messageId = parseId(new URL(c.req.url).searchParams.get('m') ?? '');
    if (sid && status) {
      // The message is in the ledger its id names (src/modules/ledger); a callback without our id (a message sent
      // before the callbacks carried it) is looked for by its SID in each of the organisation's ledgers, newest first.
      const handles = messageId ? [await ledgerOfMessage(c.env, c.var.db, orgId, messageId)] : await allLedgers(c.env, c.var.db, orgId);
      for (const handle of handles) {
        if (!handle) continue;
        const ledger = ledgerDb(handle);
        const applied = await advanceDeliveryStatus(ledger, orgId, { messageId, externalId: sid }, status, params.get('ErrorCode') || null);
        // The broadcast view's Undelivered figure moves without a reload (best effort), as a bounce's figures do.
        if (applied.undeliveredIn !== null) await pushProgress(c.env, ledger, orgId, applied.undeliveredIn);
        if (applied.moved) break;
      }
    }
    // Twilio retries anything but a 2xx; a status we do not keep is still received.
    return c.body(null, 204);
  })
  .post('/:integrationId/inbound', async (c) => {
    const { orgId, integrationId, params } = await verifiedCall(c, 'inbound');
    const from = params.get('From')?.trim();
    const change = optChangeOf(params.get('Body'), params.get('OptOutType'));
    if (from) {
      // The message is in the stream (sms.received) in the batch of the opt change it makes, if any.
      const received = receivedSmsStatement(c.var.db, {
        orgId,
        integrationId,
        from,
        to: params.get('To')?.trim() || null,
        body: params.get('Body') ?? '',
        providerId: params.get('MessageSid') ?? params.get('SmsSid'),
      });
      if (change) await rawBatch(c.var.db, [optChangeStatement(c.var.db, orgId, integrationId, from, change), received]);
      else await received;
      announceAfter(c, orgId);
    }
    // An empty TwiML answer: no reply from us (Twilio sends its own STOP/START confirmations).
    return c.body(EMPTY_TWIML, 200, { 'content-type': 'text/xml; charset=utf-8' });
  });
