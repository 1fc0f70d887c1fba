import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../../context';
import type { contacts } from '../../../db/schema';
import { ApiError } from '../../../lib/api-error';
import { describeClient } from '../../../lib/user-agent';
import type { AddressType } from '../../../shared/address';
import { confirmsErasure, PRIVACY_MESSAGES, type Erasure } from '../../../shared/contracts/privacy';
import { announceAfter } from '../../event/announce';
import { movePersonMessages } from '../../ledger/move';
import { requestLedgers } from '../../ledger/request-ledger';
import { eraseInD1 } from './d1-part';
import { unsettledMessages } from './ledger-part';
import { runErasure } from './run-erasure';
import { subjectNeedles, type ErasureSubject } from './subject';

// POST /contact/{id}/erase: the confirmation checked, what would make the erasure incomplete refused (an import
// running, messages to the person still on their way), then the D1 step (the contact and what hangs on it, in one
// transaction) and the copies step (ledgers, archives, stored files), answered with the counts.

async function subjectOf(c: Context<AppEnv>, contact: typeof contacts.$inferSelect): Promise<ErasureSubject> {
  const addresses = await c.var.db.all<{ type: AddressType; value: string }>(
    sql`SELECT type, value FROM contact_addresses WHERE contact_id = ${contact.id} AND org_id = ${c.var.org.id} ORDER BY position, id`,
  );
  return { orgId: c.var.org.id, contactId: contact.id, name: contact.name, addresses };
}

async function refuseIncomplete(c: Context<AppEnv>, subject: ErasureSubject): Promise<void> {
  const [running] = await c.var.db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM imports WHERE org_id = ${subject.orgId} AND status IN ('new', 'processing')`,
  );
  if (Number(running?.n) > 0) throw new ApiError(409, 'conflict', PRIVACY_MESSAGES.importRunning);
  for (const ledger of await requestLedgers(c)) {
    if ((await unsettledMessages(ledger, subject)) > 0) throw new ApiError(409, 'conflict', PRIVACY_MESSAGES.messagesUnderway);
  }
}

export async function eraseContact(c: Context<AppEnv>, contact: typeof contacts.$inferSelect, confirm: string): Promise<Erasure> {
  const subject = await subjectOf(c, contact);
  if (!confirmsErasure(subject, confirm)) {
    throw new ApiError(422, 'validation_failed', PRIVACY_MESSAGES.confirmMismatch, { confirm: [PRIVACY_MESSAGES.confirmMismatch] });
  }
  // Messages made before the ledger that the cron has not moved yet: into the ledger, where the erasure finds them.
  await movePersonMessages(c.env, c.var.db, subject.orgId, { contactId: subject.contactId, recipients: subjectNeedles(subject) });
  await refuseIncomplete(c, subject);
  const actor = {
    userId: c.var.auth?.userId ?? null,
    apiKeyId: c.var.auth?.orgKey?.id ?? null,
    client: describeClient(c.req.header('user-agent')),
  };
  const d1 = await eraseInD1(c.var.db, c.env, subject, actor);
  const known = { suppressions_removed: d1.suppressionsRemoved, activity_entries_cleared: d1.activityEntriesCleared };
  await c.var.db.run(sql`UPDATE erasures SET summary = ${JSON.stringify(known)} WHERE id = ${d1.erasureId} AND org_id = ${subject.orgId}`);
  // contact.deleted (naming only the id) goes into the stream after the answer, as every contact write's events do.
  announceAfter(c);
  return runErasure(c.var.db, c.env, d1.erasureId, subject, known);
}
