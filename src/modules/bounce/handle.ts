import type { Env } from '../../env';
import { readBounceAddress } from './address';
import { applyDeliveryReport } from './apply';
import { readBounceReport } from './report';

// The worker's email handler (src/index.ts) hands every mail that reaches the bounce domain here. The address it
// came to names the organisation and the message (address.ts); the mail says what happened (report.ts); apply.ts
// does what a bounce or a complaint does. An auto-reply or a delay notice changes nothing; anything else
// (unrecognised, a forged or foreign address, a message that is gone) is kept in R2 for the operator (KEPT_PREFIX,
// at most KEPT_BYTES of it) and logged, never silently dropped.

export const KEPT_PREFIX = 'system/bounces/unrecognised/';
/** How much of an unrecognised mail is kept (the rest is cut: the headers and the start tell what it was). */
export const KEPT_BYTES = 256 * 1024;

export type BounceOutcome = 'bounced' | 'soft_bounced' | 'complained' | 'ignored' | 'kept';

/** Handles one mail that arrived at `to` (the envelope recipient); answers what it did. */
export async function handleBounceMail(env: Env, mail: { from: string; to: string; raw: ArrayBuffer }): Promise<BounceOutcome> {
  const ref = await readBounceAddress(env, mail.to);
  const report = await readBounceReport(mail.raw);
  const log = (outcome: BounceOutcome, extra: Record<string, unknown> = {}) =>
    console.log(JSON.stringify({ level: 'info', job: 'bounce', outcome, to: mail.to, kind: report.kind, ...extra }));
  if (report.kind === 'ignored') {
    log('ignored', { why: report.why });
    return 'ignored';
  }
  const outcome = ref && report.kind !== 'unrecognised' ? await applyDeliveryReport(env, ref, report) : null;
  if (!ref || !outcome) {
    const why = !ref ? 'not one of our bounce addresses' : report.kind === 'unrecognised' ? report.why : 'its message is gone';
    await keep(env, mail, why);
    log('kept', { why });
    return 'kept';
  }
  log(outcome, { orgId: ref.orgId, messageId: ref.messageId });
  return outcome;
}

/** Keeps an unrecognised mail in R2 for the operator (cut at KEPT_BYTES), named by the day and a random id. */
async function keep(env: Env, mail: { from: string; to: string; raw: ArrayBuffer }, why: string): Promise<void> {
  const key = `${KEPT_PREFIX}${new Date().toISOString().slice(0, 10)}/${crypto.randomUUID()}.eml`;
  await env.FILES.put(key, mail.raw.slice(0, KEPT_BYTES), {
    httpMetadata: { contentType: 'message/rfc822' },
    customMetadata: { from: mail.from.slice(0, 200), to: mail.to.slice(0, 200), why: why.slice(0, 200), bytes: String(mail.raw.byteLength) },
  });
}
