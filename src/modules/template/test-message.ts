import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { messages, senders, type templates } from '../../db/schema';
import { requestCurrentLedger, requestLedger } from '../ledger/request-ledger';
import { markSingleWritten } from '../ledger/singles';
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
import { enqueueSend } from '../message/send-message';
import { renderForRequest, scopeForContact } from './render-for';

type Ctx = Context<AppEnv>;

/**
 * POST /template/{id}/test: renders the template for the contact (if any), stores a queued test message from
 * the sender to the typed address and puts it on the send queue. The route never sends itself.
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

  // Kept with the organisation's other messages, in its ledger (src/modules/ledger).
  const handle = await requestCurrentLedger(c);
  const ledger = await requestLedger(c);
  const [row] = await new TenantScope(ledger, messages, orgId).insert({
    type: sms ? 'sms' : 'email',
    status: 'queued',
    isTest: true,
    senderId: sender.id,
    templateId: template.id,
    contactId: input.contact_id ?? null,
    fromAddress: sender.value,
    fromName: sms ? null : sender.name,
    toAddress: to,
    subject,
    body: rendered.body,
    bodyPlain: sms ? null : rendered.body_plain,
  });
  try {
    // The watchdog finds it through this mark if its delivery dies (ledger/singles.ts); before the queue, so a
    // delivery that ends at once is still seen.
    await markSingleWritten(c.var.db, handle);
    await enqueueSend(c.env, orgId, row.id);
  } catch (error) {
    // Nothing will pick it up: say so on the row rather than leave it queued forever.
    await new TenantScope(ledger, messages, orgId).update(eq(messages.id, row.id), { status: 'failed', error: 'Could not be put on the send queue' });
    throw error;
  }
  return c.json({ data: presentMessage(row, { body: row.body, body_plain: row.bodyPlain, html: !sms && templateType !== 'text' }) }, 202);
}
