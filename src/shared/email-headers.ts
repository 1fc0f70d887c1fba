// The headers a caller of the send API may put on an email (`headers`), one rule for the API's validation and the
// console. An allow-list, not a deny-list: every header the platform or the mail system gives a meaning to (From,
// To, Cc, Bcc, Subject, Date, Message-ID, Return-Path, MIME-Version, Content-*, List-*, DKIM-Signature, Received,
// Reply-To, which has its own field, Precedence, Feedback-ID...) stays out because only these are in:
// - X- headers (the caller's own, e.g. X-Order-Id), except the ones below;
// - In-Reply-To and References (RFC 5322 3.6.4), as message ids, so that a notification joins the conversation it
//   answers in the recipient's mail client.
// List-Id is not in: the platform sets it for a category's mail (src/modules/sending/bulk-headers.ts), and a second
// one, or a caller's on transactional mail, would file it under a list the organisation does not have.

export const HEADER_LIMITS = { count: 20, nameLength: 100, valueLength: 1000 } as const;

/** The threading headers a caller may set, as written. */
export const THREADING_HEADERS = ['In-Reply-To', 'References'] as const;

/**
 * X- headers a caller may not set, by prefix (any case):
 * - X-SMTPAPI: ours (src/modules/bounce/sendgrid-events.ts: the message id SendGrid's events come back with), and
 *   with the other providers' control headers read as instructions by the provider's SMTP relay an integration may
 *   be (more recipients, another account's settings, tracking): Mandrill (X-MC-), Mailgun, Amazon SES, Postmark
 *   (X-PM-), SparkPost (X-MSYS-API), Mailjet;
 * - X-Relay-: kept for the platform;
 * - the verdicts receiving filters write (X-Spam-, X-Virus-, Exchange's X-MS-Exchange-): forged ones are how
 *   phishing gets past a filter that trusts what it finds.
 */
export const FORBIDDEN_X_PREFIXES = [
  'X-SMTPAPI',
  'X-MC-',
  'X-Mailgun-',
  'X-SES-',
  'X-PM-',
  'X-MSYS-API',
  'X-Mailjet-',
  'X-Relay-',
  'X-Spam-',
  'X-Virus-',
  'X-MS-Exchange-',
] as const;

/** Letters, digits and hyphens, starting with a letter or digit (RFC 5322 allows more; nobody needs it). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
/** Line breaks (Unicode's too) and other controls, a tab aside: what could end the header early and start another. */
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/;
/** One or more message ids, <left@right> (each side printable ASCII but <, > and @), one after another or blank-separated. */
const MESSAGE_IDS = /^<[!-;=?A-~]+@[!-;=?A-~]+>(?:[ \t]*<[!-;=?A-~]+@[!-;=?A-~]+>)*$/;

const THREADING = new Set(THREADING_HEADERS.map((name) => name.toLowerCase()));
const FORBIDDEN = FORBIDDEN_X_PREFIXES.map((prefix) => prefix.toLowerCase());

/** True when a caller may set a header of this name (any case). */
export function isAllowedHeaderName(name: string): boolean {
  if (!NAME.test(name) || name.length > HEADER_LIMITS.nameLength) return false;
  const lower = name.toLowerCase();
  if (THREADING.has(lower)) return true;
  return lower.startsWith('x-') && lower.length > 2 && !FORBIDDEN.some((prefix) => lower.startsWith(prefix));
}

/** What is wrong with a caller's headers, one message per problem (empty when they may go as they are). */
export function headerErrors(headers: Record<string, string>): string[] {
  const errors: string[] = [];
  const names = Object.keys(headers);
  if (names.length > HEADER_LIMITS.count) errors.push(`At most ${HEADER_LIMITS.count} headers can be set; ${names.length} were given.`);
  const seen = new Set<string>();
  for (const name of names) {
    const problem = nameProblem(name) ?? valueProblem(name, headers[name]);
    if (problem) errors.push(problem);
    const lower = name.toLowerCase();
    if (seen.has(lower)) errors.push(`Header "${shown(name)}" is given twice (header names ignore case).`);
    seen.add(lower);
  }
  return errors;
}

function nameProblem(name: string): string | null {
  if (name.length > HEADER_LIMITS.nameLength) return `Header name "${shown(name)}…" is longer than ${HEADER_LIMITS.nameLength} characters.`;
  if (!NAME.test(name)) return `Header name "${shown(name)}" may only have letters, digits and hyphens.`;
  if (!isAllowedHeaderName(name)) {
    return `Header "${name}" cannot be set: only X- headers (not ${forbiddenList()}), In-Reply-To and References are allowed.`;
  }
  return null;
}

function valueProblem(name: string, value: unknown): string | null {
  if (typeof value !== 'string') return `Header "${name}" must be text.`;
  if (CONTROL.test(value)) return `Header "${name}" must not contain line breaks or control characters.`;
  if (value.length > HEADER_LIMITS.valueLength) return `Header "${name}" is longer than ${HEADER_LIMITS.valueLength} characters.`;
  const trimmed = value.trim();
  if (!trimmed) return `Header "${name}" has no value.`;
  if (THREADING.has(name.toLowerCase()) && !MESSAGE_IDS.test(trimmed)) {
    return `Header "${name}" must be one or more message ids, each as <id@domain>, separated by spaces.`;
  }
  return null;
}

/** A name as quoted in a message: cut short, its controls made visible. */
function shown(name: string): string {
  return JSON.stringify(name.slice(0, 40)).slice(1, -1);
}

function forbiddenList(): string {
  return FORBIDDEN_X_PREFIXES.map((prefix) => (prefix.endsWith('-') ? `${prefix}*` : prefix)).join(', ');
}
