import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { smsOptOuts } from '../../db/schema';

// Replies that opt a number out of an organisation's SMS, or back in (the keywords carriers and Twilio honour on
// long codes). Twilio blocks the number per sender and account; our list is per organisation, and the broadcast
// engine skips every number on it when choosing recipients and again just before sending.

const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'END', 'QUIT', 'CANCEL', 'OPTOUT', 'REVOKE']);
const OPT_IN = new Set(['START', 'UNSTOP']);

export type OptChange = { kind: 'out' | 'in'; keyword: string } | null;

/**
 * What a reply asks for: the whole text, trimmed and in capitals, must be a keyword ("stop" yes, "please stop
 * texting" no, as carriers read it). Twilio's OptOutType, when its Advanced Opt-Out names one, wins.
 */
export function optChangeOf(body: string | null | undefined, optOutType?: string | null): OptChange {
  const type = optOutType?.trim().toUpperCase();
  if (type === 'STOP') return { kind: 'out', keyword: (body ?? '').trim().toUpperCase() || 'STOP' };
  if (type === 'START') return { kind: 'in', keyword: (body ?? '').trim().toUpperCase() || 'START' };
  const word = (body ?? '')
    .trim()
    .replace(/[.!]+$/, '')
    .toUpperCase();
  if (OPT_OUT.has(word)) return { kind: 'out', keyword: word };
  if (OPT_IN.has(word)) return { kind: 'in', keyword: word };
  return null;
}

/** The statement that records an opt-out (a repeat keeps the first) or lifts it, for the caller's batch. */
export function optChangeStatement(db: Database, orgId: number, integrationId: number, phone: string, change: NonNullable<OptChange>) {
  if (change.kind === 'in') return db.delete(smsOptOuts).where(and(eq(smsOptOuts.orgId, orgId), eq(smsOptOuts.phone, phone)));
  return db.run(sql`INSERT INTO ${smsOptOuts} (org_id, phone, keyword, integration_id) VALUES (${orgId}, ${phone}, ${change.keyword}, ${integrationId})
    ON CONFLICT (org_id, phone) DO NOTHING`);
}

/** Records an opt-out (a repeat keeps the first) or lifts it; answers whether anything changed. */
export async function applyOptChange(db: Database, orgId: number, integrationId: number, phone: string, change: NonNullable<OptChange>): Promise<boolean> {
  const result = await optChangeStatement(db, orgId, integrationId, phone, change);
  return (result.meta.changes ?? 0) > 0;
}
