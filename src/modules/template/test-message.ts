import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { messages, senders, type templates } from '../../db/schema';
import { requestCurrentLedger, requestLedger } from '../ledger/request-ledger';
import { served } from '../ledger/owner';
import type { LaneRow } from '../transactional/lane';
import { enqueueSingles } from '../transactional/enqueue';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError, validationFailed } from '../../lib/api-error';
import { normalizeAddress } from '../../shared/address';
import { addressError } from '../../shared/address';
import type { SenderType } from '../../shared/contracts/sender';
import {
  senderFitsTemplate,
  senderMismatchMessage,
  TEMPLATE_LIMITS,
  TEMPLATE_MESSAGES,
  type TemplateType,
  type TestMessageInput,
} from '../../shared/contracts/template';
import { isBlacklisted } from '../blacklist/lookup';
import { presentMessage } from '../message/present';
import { renderForRequest, scopeForContact } from './render-for';

type Ctx = Context<AppEnv>;

/**
 * POST /template/{id}/test: renders the template for the contact (if any), stores a queued test message from
 * the sender to the typed address and puts it on the transactional queue. The route never sends itself.
 * html and email templates go by email, text templates by SMS (phone sender). An email takes the template's
 * subject: an html or email template without one is refused.
 */
export async function sendTestMessage(c: Ctx, template: typeof templates.$inferSelect, input: TestMessageInput) {
  const orgId = c.var.org.id;
  const sender = await new TenantScope(c.var.db, senders, orgId).findById(input.sender_id);
  if (!sender) throw validationFailed({ sender_id: [TEMPLATE_MESSAGES.senderNotFound] });
  const templateType = template.type as TemplateType;
  const senderType = sender.type as SenderType;
  if (!senderFitsTemplate(templateType, senderType)) throw validationFailed({ sender_id: [senderMismatchMessage(templateType)] });

  const problem = addressError(senderType, input.to);
  if (problem) throw validationFailed({ to: [problem] });
  const to = normalizeAddress(senderType, input.to);
  if (await isBlacklisted(c.var.db, orgId, senderType, to))
    throw new ApiError(422, 'validation_failed', TEMPLATE_MESSAGES.blacklisted, { to: [TEMPLATE_MESSAGES.blacklisted] });

  const rendered = renderForRequest(template, await scopeForContact(c, input.contact_id));
  const sms = senderType === 'phone';
  // Never a subject the user did not write: the template's own.
  const subject = sms ? null : rendered.subject;
  if (!sms && subject === null) throw validationFailed({ subject: [TEMPLATE_MESSAGES.noSubject] });
  if (sms && [...rendered.body].length > TEMPLATE_LIMITS.smsCharacters) throw validationFailed({ body: [TEMPLATE_MESSAGES.smsTooLong] });

  // Kept with the organisation's other messages, in its ledger, through the single messages' lane (src/modules/
  // transactional/lane.ts): the ledger's watch hands it to the queue again if its queue message is lost.
  const handle = await requestCurrentLedger(c);
  const row: LaneRow = {
    org_id: orgId,
    type: sms ? 'sms' : 'email',
    status: 'queued',
    is_test: 1,
    sender_id: sender.id,
    template_id: template.id,
    contact_id: input.contact_id ?? null,
    from_address: sender.value,
    from_name: sms ? null : sender.name,
    to_address: to,
    subject,
    body: rendered.body,
    body_plain: sms ? null : rendered.body_plain,
    delayed_at: null,
    sent_at: null,
    external_id: null,
    api_key_id: null,
    metadata: null,
    send_options: null,
  };
  const plan = { batch: false, items: [{ accepted: true as const, row: 0, to, sendAt: null, sandbox: false }] };
  const accepted = served(await handle.stub.acceptSends(handle.owner, { rows: [row], plan }, null, null, Date.now()));
  const id = accepted.ok ? accepted.ids[0] : 0;
  try {
    await enqueueSingles(c.env, orgId, [id]);
  } catch (error) {
    // The ledger's watch hands it to the queue later; the person sees it queued meanwhile.
    console.error(JSON.stringify({ level: 'error', request_id: c.var.requestId, test_message: 'enqueue', error: String(error) }));
  }
  const stored = await new TenantScope(await requestLedger(c), messages, orgId).findById(id);
  if (!stored) throw new Error('the test message was not kept');
  return c.json({ data: presentMessage(stored, { body: stored.body, body_plain: stored.bodyPlain, html: !sms && templateType !== 'text' }) }, 202);
}
