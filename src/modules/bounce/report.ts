import PostalMime from 'postal-mime';

// What came back to a bounce address, read with postal-mime: a delivery status notification (RFC 3464,
// multipart/report; report-type=delivery-status), a feedback report (RFC 5965 ARF: a "Report spam"), the common
// bounces that follow neither (a mailer daemon's text with an SMTP code), an auto-reply or a delay notice (never a
// bounce), or
// something else, which the handler keeps for the operator.

export type BounceReport =
  | { kind: 'bounce'; hard: boolean; status: string; diagnostic: string | null; recipient: string | null }
  | { kind: 'complaint'; feedbackType: string }
  /** An auto-reply, or a notice that is no failure (delayed, delivered): counted, changes nothing. */
  | { kind: 'ignored'; why: string }
  | { kind: 'unrecognised'; why: string };

const decoder = new TextDecoder();
const textOf = (content: ArrayBuffer | Uint8Array | string) => (typeof content === 'string' ? content : decoder.decode(content));

/** `Name: value` fields of one block of a report part (continuation lines folded), lower-cased names; the first of a name wins. */
function fieldsOf(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text
    .replace(/\r\n/g, '\n')
    .replace(/\n[ \t]+/g, ' ')
    .split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

/** An address field's address (`rfc822; someone@example.org` -> someone@example.org). */
const addressOf = (value: string | undefined) =>
  value
    ? value
        .replace(/^[^;]*;\s*/, '')
        .replace(/^<|>$/g, '')
        .trim()
        .toLowerCase() || null
    : null;

/** A status code (5.1.1) from a status field or an SMTP reply; "5.0.0" / "4.0.0" from a bare 5xx / 4xx reply. */
function statusOf(...texts: (string | null | undefined)[]): string | null {
  for (const text of texts) {
    const enhanced = text && /\b([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(text);
    if (enhanced) return enhanced.slice(1).join('.');
  }
  for (const text of texts) {
    const basic = text && /\b([45])\d\d\b/.exec(text);
    if (basic) return `${basic[1]}.0.0`;
  }
  return null;
}

const header = (headers: { key: string; value: string }[], name: string) => headers.find((h) => h.key === name)?.value ?? '';

/** Reads what arrived (raw RFC 5322 bytes). */
export async function readBounceReport(raw: ArrayBuffer | string): Promise<BounceReport> {
  let mail: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    mail = await PostalMime.parse(raw);
  } catch (error) {
    return { kind: 'unrecognised', why: `not a readable mail: ${String(error)}` };
  }
  const headers = mail.headers;
  const contentType = header(headers, 'content-type').toLowerCase();
  const part = (type: string) => mail.attachments.find((a) => a.mimeType.toLowerCase() === type);

  const feedback = part('message/feedback-report');
  if (feedback || contentType.includes('report-type=feedback-report')) {
    const fields = feedback ? fieldsOf(textOf(feedback.content)) : new Map<string, string>();
    return { kind: 'complaint', feedbackType: fields.get('feedback-type')?.toLowerCase() ?? 'abuse' };
  }

  const status = part('message/delivery-status') ?? part('message/global-delivery-status');
  if (status) {
    // The per-message block first, then one block per recipient (blank lines between). A message has one recipient
    // (its own bounce address), but a report may list more (an alias that expanded, a forwarder): the first that
    // failed is the bounce; without one, it is a notice (delayed, delivered, relayed, expanded), not a bounce.
    const [perMessage, ...recipients] = textOf(status.content)
      .replace(/\r\n/g, '\n')
      .split(/\n[ \t]*\n/)
      .filter((block) => block.trim())
      .map(fieldsOf);
    const blocks = recipients.length ? recipients : [perMessage ?? new Map<string, string>()];
    const failed = blocks.find((b) => (b.get('action')?.toLowerCase() ?? 'failed') === 'failed');
    if (!failed) return { kind: 'ignored', why: `a delivery status notice: ${blocks[0].get('action')?.toLowerCase()}` };
    const code = statusOf(failed.get('status'), failed.get('diagnostic-code')) ?? '5.0.0';
    return {
      kind: 'bounce',
      hard: code.startsWith('5'),
      status: code,
      diagnostic: failed.get('diagnostic-code') ?? null,
      recipient: addressOf(failed.get('final-recipient') ?? failed.get('original-recipient')),
    };
  }

  // Auto-replies (RFC 3834, and what vacation responders add): never a bounce.
  const autoSubmitted = header(headers, 'auto-submitted').toLowerCase();
  const subject = (mail.subject ?? '').toLowerCase();
  if (
    autoSubmitted.startsWith('auto-replied') ||
    header(headers, 'x-autoreply') ||
    header(headers, 'x-autorespond') ||
    /auto_reply|auto-reply/.test(header(headers, 'precedence').toLowerCase()) ||
    /out of office|automatic reply|autoreply|auto-reply|abwesenheit/.test(subject)
  ) {
    return { kind: 'ignored', why: 'an auto-reply' };
  }

  // A bounce that follows no standard: from a mailer daemon or postmaster, about an undelivered mail, with an SMTP code.
  const from = (mail.from?.address ?? '').toLowerCase();
  const daemon = /^(mailer-daemon|postmaster)@/.test(from);
  const aboutFailure = /undeliver|delivery (status notification|failure|has failed)|returned mail|failure notice|could not be delivered/.test(subject);
  if (daemon || aboutFailure) {
    const text = mail.text ?? '';
    const code = statusOf(text);
    if (code && (daemon || aboutFailure)) {
      const line = text.split('\n').find((l) => l.includes(code) || /\b[45]\d\d\b/.test(l));
      return { kind: 'bounce', hard: code.startsWith('5'), status: code, diagnostic: line?.trim().slice(0, 500) ?? null, recipient: null };
    }
  }
  return { kind: 'unrecognised', why: 'neither a delivery status notification, a feedback report, nor a bounce we know' };
}
