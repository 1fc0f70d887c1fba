import type { ContactPlaceholders } from '../../lib/templating/placeholders';
import { renderTemplate, TemplateRenderError } from '../../lib/templating/render-template';
import { addressError, normalizeAddress, type AddressType } from '../../shared/address';
import { senderFitsTemplate, senderMismatchMessage, TEMPLATE_LIMITS, type TemplateType } from '../../shared/contracts/template';
import { TRANSACTIONAL_LIMITS, TRANSACTIONAL_MESSAGES as M, type SendMessageInput, type SendOptions } from '../../shared/contracts/transactional';
import { SUPPRESSION_REASONS } from '../../shared/contracts/suppression';
import { headerErrors } from '../../shared/email-headers';
import { addressKey } from '../blacklist/lookup';
import { addressTypeOf, type SendReferences } from './references';
import { missingDataNames } from './template-data';
import { UNSUBSCRIBE_MARK } from './unsubscribe-mark';

// One message of a send call checked and made ready, or the reasons it is refused, field by field: every check of
// the list of refusals is here, in the order a caller would fix them. Nothing is written: the route stores
// the inline files, makes a category's contact and hands the ready messages to the ledger (routes.ts).

export interface InlineFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface ReadySend {
  channel: 'email' | 'sms';
  sender: { id: number; value: string; name: string | null; integrationId: number };
  to: string;
  /** The contact the message is about: named, or found by the address. */
  contactId: number | null;
  /** A category send to an address that is no contact: the route makes one (the unsubscribe needs it). */
  makeContact: boolean;
  templateId: number | null;
  subject: string | null;
  body: string;
  bodyPlain: string | null;
  inline: InlineFile[];
  options: SendOptions;
  metadata: Record<string, string> | null;
  /** ISO time to send at; null: now. */
  sendAt: string | null;
}

export type Prepared = { ok: true; send: ReadySend } | { ok: false; fields: Record<string, string[]> };

export interface PrepareContext {
  orgId: number;
  organization: { name: string; domain: string };
  /** The organisation's tracking defaults. */
  tracking: { opens: boolean; clicks: boolean };
  /** Contacts' placeholders by id (loaded for template sends that name or find a contact). */
  people: Map<number, ContactPlaceholders>;
  now: number;
}

const SUPPRESSED: Record<string, string> = { bounce: M.suppressedBounce, soft_bounces: M.suppressedBounce, complaint: M.suppressedComplaint };

/** The contact a message is about: the one named, else the one with the recipient's address. */
export function contactOf(input: SendMessageInput, refs: SendReferences): number | null {
  if (input.contact_id !== undefined) return refs.contacts.has(input.contact_id) ? input.contact_id : null;
  return refs.contactOfAddress.get(addressKey(addressTypeOf(input.to), input.to)) ?? null;
}

function decodeBase64(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return null;
  try {
    return Uint8Array.from(atob(clean), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Checks and renders one message. */
export function prepareSend(input: SendMessageInput, refs: SendReferences, ctx: PrepareContext): Prepared {
  const fields: Record<string, string[]> = {};
  const refuse = (field: string, message: string) => void (fields[field] ??= []).push(message);
  const done = (): Prepared => ({ ok: false, fields });

  const sender = refs.senders.get(input.sender_id);
  if (!sender) refuse('sender_id', M.senderNotFound);
  const template = input.template_id !== undefined ? refs.templates.get(input.template_id) : undefined;
  if (input.template_id !== undefined && !template) refuse('template_id', M.templateNotFound);
  const inline = input.html !== undefined || input.text !== undefined;
  if (input.template_id !== undefined && (inline || input.subject !== undefined)) refuse('template_id', M.notBoth);
  if (input.template_id === undefined && !inline) refuse('template_id', M.contentOrTemplate);
  if (input.contact_id !== undefined && !refs.contacts.has(input.contact_id)) refuse('contact_id', M.contactNotFound);
  if (input.subscription_id !== undefined && !refs.subscriptions.has(input.subscription_id)) refuse('subscription_id', M.subscriptionNotFound);
  for (const id of input.attachment_ids ?? []) if (!refs.files.has(id)) refuse('attachment_ids', `${M.attachmentNotFound}: ${id}`);
  if (!sender) return done();

  const type = sender.type as AddressType;
  const channel = type === 'phone' ? 'sms' : 'email';
  const toProblem = addressError(type, input.to);
  if (toProblem) refuse('to', addressTypeOf(input.to) !== type ? M.channelMismatch(type) : toProblem);
  if (template && !senderFitsTemplate(template.type as TemplateType, type)) refuse('template_id', senderMismatchMessage(template.type as TemplateType));
  if (channel === 'sms') {
    for (const part of ['subject', 'html', 'cc', 'bcc', 'reply_to', 'headers', 'attachment_ids', 'attachments'] as const)
      if (input[part] !== undefined) refuse(part, M.smsNoEmailParts);
  } else {
    for (const part of ['cc', 'bcc'] as const)
      for (const value of input[part] ?? []) {
        const problem = addressError('email', value);
        if (problem) refuse(part, `${value}: ${problem}`);
      }
    if (input.reply_to !== undefined) {
      const problem = addressError('email', input.reply_to);
      if (problem) refuse('reply_to', problem);
    }
    for (const problem of headerErrors(input.headers ?? {})) refuse('headers', problem);
  }

  if (input.data !== undefined && new TextEncoder().encode(JSON.stringify(input.data)).length > TRANSACTIONAL_LIMITS.dataBytes) refuse('data', M.dataTooLarge);
  const files: InlineFile[] = [];
  let inlineBytes = 0;
  for (const [k, file] of (input.attachments ?? []).entries()) {
    const bytes = decodeBase64(file.content);
    if (!bytes) refuse(`attachments.${k}.content`, M.notBase64);
    else {
      inlineBytes += bytes.length;
      files.push({ filename: file.filename, contentType: file.content_type, bytes });
    }
  }
  if (inlineBytes > TRANSACTIONAL_LIMITS.inlineBytes) refuse('attachments', M.inlineTooLarge);
  if ((input.attachments?.length ?? 0) + (input.attachment_ids?.length ?? 0) > TRANSACTIONAL_LIMITS.attachments) refuse('attachments', M.tooManyAttachments);

  let sendAt: string | null = null;
  if (input.send_at !== undefined) {
    const at = Date.parse(input.send_at);
    if (at < ctx.now - 60_000) refuse('send_at', M.sendAtPast);
    else if (at > ctx.now + TRANSACTIONAL_LIMITS.scheduleHours * 3_600_000) refuse('send_at', M.sendAtTooFar);
    else if (at > ctx.now) sendAt = new Date(at).toISOString();
  }
  if (Object.keys(fields).length > 0) return done();

  // What suppresses a recipient: the blacklist (a person's entry, a hard bounce, a complaint), STOP, the category.
  const to = normalizeAddress(type, input.to);
  const recipients: [string, string][] = [
    ['to', to],
    ...(input.cc ?? []).map((v): [string, string] => ['cc', v]),
    ...(input.bcc ?? []).map((v): [string, string] => ['bcc', v]),
  ];
  for (const [field, value] of recipients) {
    const key = addressKey(type, value);
    if (!refs.blacklisted.has(key)) continue;
    const reason = refs.blacklisted.get(key) ?? null;
    refuse(field, reason && (SUPPRESSION_REASONS as readonly string[]).includes(reason) ? SUPPRESSED[reason] : M.blacklisted);
  }
  if (channel === 'sms' && refs.optedOut.has(to)) refuse('to', M.optedOut);
  const contactId = contactOf(input, refs);
  if (input.subscription_id !== undefined && contactId !== null && refs.unsubscribed.has(`${contactId}:${input.subscription_id}`)) refuse('to', M.unsubscribed);
  if (Object.keys(fields).length > 0) return done();

  // The content: the template rendered with the data and the contact, or the inline parts as given.
  let subject: string | null = null;
  let body: string;
  let bodyPlain: string | null = null;
  let plain = channel === 'sms';
  if (template) {
    const missing = missingDataNames([template.subject, template.body, template.bodyPlain], input.data ?? {});
    if (missing.length) return { ok: false, fields: { data: [M.missingData(missing)] } };
    try {
      const rendered = renderTemplate({ type: template.type as TemplateType, subject: template.subject, body: template.body, bodyPlain: template.bodyPlain }, {
        contact: (contactId !== null && ctx.people.get(contactId)) || {},
        organization: ctx.organization,
        // A category's link is made per message when it is sent (compose.ts): its token names the message.
        unsubscribe_url: input.subscription_id !== undefined ? UNSUBSCRIBE_MARK : '',
        data: input.data ?? {},
      } as Parameters<typeof renderTemplate>[1]);
      subject = channel === 'email' ? rendered.subject : null;
      body = rendered.body;
      bodyPlain = channel === 'email' ? rendered.body_plain : null;
    } catch (error) {
      if (error instanceof TemplateRenderError) return { ok: false, fields: { template_id: [error.message] } };
      throw error;
    }
  } else if (channel === 'sms') {
    body = input.text ?? '';
  } else {
    subject = input.subject ?? null;
    body = input.html ?? input.text ?? '';
    bodyPlain = input.html !== undefined ? (input.text ?? null) : null;
    plain = input.html === undefined;
  }
  if (channel === 'email' && !subject?.trim()) return { ok: false, fields: { subject: [M.subjectRequired] } };
  if (channel === 'sms' && [...body].length > TEMPLATE_LIMITS.smsCharacters) return { ok: false, fields: { text: [M.smsTooLong] } };

  const options: SendOptions = {};
  if (input.cc?.length) options.cc = input.cc.map((v) => normalizeAddress('email', v));
  if (input.bcc?.length) options.bcc = input.bcc.map((v) => normalizeAddress('email', v));
  if (input.reply_to !== undefined) options.replyTo = input.reply_to.trim();
  if (input.headers && Object.keys(input.headers).length) options.headers = input.headers;
  const files2 = (input.attachment_ids ?? []).map((id) => refs.files.get(id)!);
  if (files2.length) options.attachments = files2.map((f) => ({ key: f.fileKey, filename: f.fileName, contentType: f.contentType, size: f.size }));
  if (channel === 'email' && !plain)
    options.tracking = { opens: input.tracking?.opens ?? ctx.tracking.opens, clicks: input.tracking?.clicks ?? ctx.tracking.clicks };
  if (plain && channel === 'email') options.plain = true;
  if (input.subscription_id !== undefined) options.subscriptionId = input.subscription_id;
  return {
    ok: true,
    send: {
      channel,
      sender: { id: sender.id, value: sender.value, name: sender.name, integrationId: sender.integrationId },
      to,
      contactId,
      makeContact: input.subscription_id !== undefined && contactId === null,
      templateId: template?.id ?? null,
      subject,
      body,
      bodyPlain,
      inline: files,
      options,
      metadata: input.metadata ? (input.metadata as Record<string, string>) : null,
      sendAt,
    },
  };
}
