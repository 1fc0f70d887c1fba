import { type SQL, sql } from 'drizzle-orm';
import { messages } from '../../db/schema';
import { REPORTED_OUTCOMES, type MessageKind, type MessageOutcome } from '../../shared/contracts/message';

// The outcome rule (and the kind rule) of src/shared/contracts/message.ts (messageOutcome) as a condition on the messages table, built
// from the same REPORTED_OUTCOMES, so the list's filter and the chip on each row can never disagree.

const REPORTS = Object.keys(REPORTED_OUTCOMES);
const reportsOf = (outcome: MessageOutcome) => REPORTS.filter((report) => REPORTED_OUTCOMES[report as keyof typeof REPORTED_OUTCOMES] === outcome);
const listOf = (values: string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

/** The messages whose outcome is `outcome`: the message list's and a broadcast's recipients' `?outcome=` filter. */
export function outcomeCondition(outcome: MessageOutcome): SQL {
  if (outcome === 'queued') return sql`${messages.status} IN ('queued', 'sending')`;
  if (outcome === 'failed' || outcome === 'skipped') return sql`${messages.status} = ${outcome}`;
  if (outcome === 'sent')
    return sql`(${messages.status} = 'sent' AND (${messages.deliveryStatus} IS NULL OR ${messages.deliveryStatus} NOT IN (${listOf(REPORTS)})))`;
  return sql`(${messages.status} = 'sent' AND ${messages.deliveryStatus} IN (${listOf(reportsOf(outcome))}))`;
}

/** The messages of one kind (messageKind's rule as SQL): the message list's `?kind=` filter. */
export function kindCondition(kind: MessageKind): SQL {
  if (kind === 'broadcast') return sql`${messages.broadcastId} IS NOT NULL`;
  return sql`(${messages.broadcastId} IS NULL AND ${messages.isTest} = ${kind === 'test' ? 1 : 0})`;
}
