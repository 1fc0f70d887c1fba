import type { SmtpReply } from './reply';

// What the SMTP server calls the message it accepted: the queue id in its final reply to the content, the id a
// person finds in the provider's logs and bounce reports. Servers word it differently; the common forms:
//   Postfix, SendGrid, Mailjet   250 2.0.0 Ok: queued as 4ZB9Kq3XyzV
//   Exim                         250 OK id=1tA2bC-000Abc-Ef
//   Amazon SES                   250 Ok 0100018c5d2e...-000000
//   Sendmail                     250 2.0.0 4AQE1x8K012345 Message accepted for delivery
//   Gmail                        250 2.0.0 OK  1732600000 a640c23a62f3a-aa5b...gsmtp
// A reply that names none (the local mail catcher, many relays) leaves the message its own Message-ID.

const PATTERNS: RegExp[] = [
  /\bqueued as\s+<?([A-Za-z0-9][\w.@-]{3,})>?/i,
  /\bid=([A-Za-z0-9][\w.-]{3,})/i,
  /^(?:\d\.\d\.\d\s+)?OK\s+([0-9a-f]{16,}(?:-[0-9a-f]+)*(?:-\d+)?)\b/i,
  /^(?:\d\.\d\.\d\s+)?([A-Za-z0-9]{8,})\s+Message accepted/i,
  /^(?:\d\.\d\.\d\s+)?OK\s+\d+\s+(\S+)\s+-\s+gsmtp/i,
];

/** The queue id the server's final reply names, or null. At most 200 characters (it is stored and searched). */
export function providerIdOf(reply: Pick<SmtpReply, 'lines'> | null | undefined): string | null {
  const text = reply?.lines.join(' ').trim();
  if (!text) return null;
  for (const pattern of PATTERNS) {
    const match = pattern.exec(text);
    if (match) return match[1].slice(0, 200);
  }
  return null;
}
