import { platformOrigin } from '../../lib/org-url';
import { parseMessageId } from '../../lib/mime/message-id';
import type { DeliveryReport } from './apply';

// SendGrid's Event Webhook body: a JSON array of events, each with `event`, `email` and what identifies our message.
// Relay reads the ones that are a bounce or a spam report of a message it sent; the rest (delivered, processed, opens,
// clicks — Relay tracks those itself — and deferrals, which are no failure) are received and left alone.

/** Where SendGrid posts one SMTP integration's events (the Event Webhook's "Post URL"), on the platform host. */
export function sendGridEventsUrl(env: { PUBLIC_URL: string }, integrationId: number): string {
  return `${platformOrigin(env)}/api/v1/hooks/sendgrid/${integrationId}/events`;
}

/**
 * The custom argument Relay gives each message through SendGrid's X-SMTPAPI header (SendGrid repeats it on every
 * event of the message, spam reports included, which carry no smtp-id).
 */
export const MESSAGE_ARG = 'relay_message_id';

/** The X-SMTPAPI header that names our message to SendGrid. */
export const sendGridHeaders = (messageId: number) => ({ 'X-SMTPAPI': JSON.stringify({ unique_args: { [MESSAGE_ARG]: String(messageId) } }) });

export interface SendGridEvent {
  messageId: number;
  email: string;
  report: DeliveryReport;
}

const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Our message id: the custom argument, else the Message-ID we gave it (smtp-id). */
function messageIdOf(e: Record<string, unknown>): number | null {
  const arg = Number(text(e[MESSAGE_ARG]));
  if (Number.isSafeInteger(arg) && arg > 0) return arg;
  return parseMessageId(text(e['smtp-id']))?.id ?? null;
}

/** What one event reports, or null for an event that changes nothing. */
export function readSendGridEvent(raw: unknown): SendGridEvent | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const e = raw as Record<string, unknown>;
  const messageId = messageIdOf(e);
  const email = text(e.email).trim().toLowerCase();
  if (!messageId || !email) return null;
  const event = text(e.event);
  const reason = text(e.reason).slice(0, 1000) || null;
  if (event === 'spamreport') return { messageId, email, report: { kind: 'complaint', feedbackType: 'abuse' } };
  if (event === 'bounce') {
    // type "blocked": the receiving server refused for now (reputation, content): a soft bounce; "bounce": hard.
    const status = /^[245]\.\d{1,3}\.\d{1,3}$/.test(text(e.status)) ? text(e.status) : null;
    const blocked = text(e.type) === 'blocked' || status?.startsWith('4');
    return {
      messageId,
      email,
      report: { kind: 'bounce', hard: !blocked, status: status ?? (blocked ? '4.0.0' : '5.0.0'), diagnostic: reason, recipient: email },
    };
  }
  if (event === 'dropped') {
    // SendGrid did not send it because its own lists hold the address: the same verdict, learned late.
    if (/spam report/i.test(reason ?? '')) return { messageId, email, report: { kind: 'complaint', feedbackType: 'abuse' } };
    if (/bounced address|invalid/i.test(reason ?? ''))
      return { messageId, email, report: { kind: 'bounce', hard: true, status: '5.0.0', diagnostic: reason, recipient: email } };
  }
  return null;
}
