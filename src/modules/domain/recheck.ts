// The daily re-check of sending domains (the housekeeping cron, src/scheduled.ts): each run checks a bounded number of
// domains whose last check is more than a day old, oldest (and never checked) first, so every domain is looked at
// about once a day however many there are, and one run never asks the resolver for more than a few hundred names.
import { asc, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sendingDomains } from '../../db/schema';
import { type CheckEnv, checkDomain } from './check';

/** Domains one run re-checks: 96 runs a day (every 15 minutes) x 25 = 2,400 domains a day, 5 lookups each. */
export const RECHECK_BATCH = 25;
const DAY_MS = 24 * 3600 * 1000;

/** Re-checks the domains due; answers how many were checked. One domain's failure does not stop the others. */
export async function recheckDomains(db: Database, env: CheckEnv, now = new Date(), limit = RECHECK_BATCH): Promise<number> {
  const dueBefore = new Date(now.getTime() - DAY_MS).toISOString();
  const due = await db
    .select()
    .from(sendingDomains)
    .where(or(isNull(sendingDomains.checkedAt), lt(sendingDomains.checkedAt, dueBefore)))
    .orderBy(sql`${sendingDomains.checkedAt} IS NOT NULL`, asc(sendingDomains.checkedAt), asc(sendingDomains.id))
    .limit(limit);
  let checked = 0;
  for (const row of due) {
    try {
      await checkDomain(env, db, row, now);
      checked++;
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', job: 'recheckDomains', domain_id: row.id, error: String(error) }));
    }
  }
  return checked;
}
