import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { createDb } from '../../db/client';
import type { Env } from '../../env';
import { rawBatch } from '../crud/raw-batch';
import { ledgerDb } from '../ledger/ledger-db';
import { ledgerOfMessage } from '../ledger/registry';
import { categoriesOf, recountUnsubscribes, unsubscribe } from '../unsubscribe/store';
import { readBounceAddress } from './address';
import { readBounceReport, type BounceReport } from './report';

// What a bounce or a spam complaint does (the worker's email handler, src/index.ts, hands every mail that reaches the
// bounce domain here). The address it came to names the organisation and the message (address.ts); the mail says
// what happened (report.ts):
// - a bounce gives the message its delivery report: bounced (hard, 5.x.x) or soft_bounced (4.x.x), the status code
//   and the diagnostic; a hard bounce blacklists the address for the organisation, so no broadcast mails it again
//   (the runner skips it "blacklisted", the blacklist entry says why and names the message);
// - a complaint ("Report spam") marks the message complained, blacklists the address and unsubscribes the contact
//   from every category (source "complaint");
// - an auto-reply or a delay notice changes nothing;
// - anything else (unrecognised, a forged or foreign address, a message that is gone) is kept in R2 for the operator
//   (KEPT_PREFIX, at most KEPT_BYTES of it) and logged, never silently dropped.
// Each step is idempotent: the same bounce twice changes nothing more.

export const KEPT_PREFIX = 'system/bounces/unrecognised/';
/** How much of an unrecognised mail is kept (the rest is cut: the headers and the start tell what it was). */
export const KEPT_BYTES = 256 * 1024;

export type BounceOutcome = 'bounced' | 'soft_bounced' | 'complained' | 'ignored' | 'kept';

interface SentMessage {
  id: number;
  org_id: number;
  type: string;
  to_address: string;
  contact_id: number | null;
  broadcast_id: number | null;
}

/** Handles one mail that arrived at `to` (the envelope recipient); answers what it did. */
export async function handleBounceMail(env: Env, mail: { from: string; to: string; raw: ArrayBuffer }): Promise<BounceOutcome> {
  const db = createDb(env.DB);
  const ref = await readBounceAddress(env, mail.to);
  const report = await readBounceReport(mail.raw);
  const log = (outcome: BounceOutcome, extra: Record<string, unknown> = {}) =>
    console.log(JSON.stringify({ level: 'info', job: 'bounce', outcome, to: mail.to, kind: report.kind, ...extra }));
  if (report.kind === 'ignored') {
    log('ignored', { why: report.why });
    return 'ignored';
  }
  const handle = ref && report.kind !== 'unrecognised' ? await ledgerOfMessage(env, db, ref.orgId, ref.messageId) : null;
  const ledger = handle ? ledgerDb(handle) : null;
  const message = ref && ledger ? await sentEmail(ledger, ref.orgId, ref.messageId) : null;
  if (!ref || !ledger || !message || report.kind === 'unrecognised') {
    const why = !ref ? 'not one of our bounce addresses' : report.kind === 'unrecognised' ? report.why : 'its message is gone';
    await keep(env, mail, why);
    log('kept', { why });
    return 'kept';
  }
  const outcome = await apply(env, db, ledger, message, report);
  log(outcome, { orgId: message.org_id, messageId: message.id });
  return outcome;
}

async function sentEmail(ledger: Database, orgId: number, messageId: number): Promise<SentMessage | null> {
  const row = await ledger.get<SentMessage | undefined>(sql`
    SELECT id, org_id, type, to_address, contact_id, broadcast_id FROM messages WHERE id = ${messageId} AND +org_id = ${orgId} AND type = 'email'`);
  return row ?? null;
}

async function apply(env: Env, db: Database, ledger: Database, m: SentMessage, report: Exclude<BounceReport, { kind: 'ignored' | 'unrecognised' }>) {
  const outcome: BounceOutcome = report.kind === 'complaint' ? 'complained' : report.hard ? 'bounced' : 'soft_bounced';
  const code = report.kind === 'bounce' ? report.status : null;
  const diagnostic = report.kind === 'bounce' ? report.diagnostic : `Reported as spam (${report.feedbackType})`;
  // A complaint outranks a bounce, a hard bounce a soft one: a later, lesser report never overwrites it. The
  // broadcast counts the message in the same transaction, only when the message's report moved (changes()); its
  // revision is bumped here, for the projection into D1 (the ledger's trigger watches the older counters only).
  const counter = outcome === 'bounced' ? sql`bounces` : outcome === 'complained' ? sql`complaints` : null;
  await rawBatch(ledger, [
    ledger.run(sql`UPDATE messages SET delivery_status = ${outcome}, delivery_error_code = ${code}, error = coalesce(error, ${diagnostic})
      WHERE id = ${m.id} AND +org_id = ${m.org_id} AND ${rank(sql`delivery_status`)} < ${RANK[outcome]}`),
    ...(counter && m.broadcast_id !== null
      ? [
          ledger.run(sql`UPDATE broadcasts SET ${counter} = ${counter} + 1, rev = rev + 1
            WHERE id = ${m.broadcast_id} AND org_id = ${m.org_id} AND changes() = 1`),
        ]
      : []),
  ]);
  if (outcome === 'soft_bounced') return outcome;
  const why = outcome === 'complained' ? `Reported as spam (message ${m.id})` : `Hard bounce ${code} (message ${m.id})`;
  await db.run(sql`INSERT INTO blacklist (org_id, type, value, info) SELECT ${m.org_id}, 'email', ${m.to_address}, ${why}
    WHERE EXISTS (SELECT 1 FROM organizations WHERE id = ${m.org_id}) AND ${m.to_address} != ''
    ON CONFLICT (org_id, type, value) DO NOTHING`);
  if (outcome === 'complained' && m.contact_id !== null) {
    const who = { orgId: m.org_id, contactId: m.contact_id, messageId: m.id, broadcastId: m.broadcast_id };
    const changes = [];
    for (const { id } of await categoriesOf(db, m.org_id)) {
      changes.push(await unsubscribe(db, who, { subscriptionId: id, reason: 'spam', comment: null, source: 'complaint' }));
    }
    await recountUnsubscribes(env, db, m.org_id, changes);
  }
  return outcome;
}

const RANK: Record<'soft_bounced' | 'bounced' | 'complained', number> = { soft_bounced: 1, bounced: 2, complained: 3 };
const rank = (column: unknown) => sql`CASE ${column} WHEN 'soft_bounced' THEN 1 WHEN 'bounced' THEN 2 WHEN 'complained' THEN 3 ELSE 0 END`;

/** Keeps an unrecognised mail in R2 for the operator (cut at KEPT_BYTES), named by the day and a random id. */
async function keep(env: Env, mail: { from: string; to: string; raw: ArrayBuffer }, why: string): Promise<void> {
  const key = `${KEPT_PREFIX}${new Date().toISOString().slice(0, 10)}/${crypto.randomUUID()}.eml`;
  await env.FILES.put(key, mail.raw.slice(0, KEPT_BYTES), {
    httpMetadata: { contentType: 'message/rfc822' },
    customMetadata: { from: mail.from.slice(0, 200), to: mail.to.slice(0, 200), why: why.slice(0, 200), bytes: String(mail.raw.byteLength) },
  });
}
