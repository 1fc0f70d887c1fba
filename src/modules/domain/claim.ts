// The claim rules: who may hold a sending domain verified.
//
// 1. Several organisations may add the same name; each gets its own token, key and records. Only one may hold it
//    verified at a time (the partial unique index sending_domains_verified_domain).
// 2. An organisation's check that finds its verification record proves control, and verifies the domain, unless:
//    a. another organisation holds the same name verified: refused (409 `taken`), except when that holder's own
//       verification record has been missing (or wrong) on its checks for 72 hours or more. Then the new proof wins:
//       the holder's row becomes `lost` (verified_at null, its break cleared), every user of the holder is told by
//       mail, and the new organisation holds the name. The holder's record is judged by what the claimant's own
//       lookup found at `_relay-verification.<domain>` (the same name holds every organisation's token): when the
//       holder's token is not there, its clock starts (if its own checks had not started it already).
//    b. another organisation holds a domain above it verified (sub.example.com while it holds example.com): refused
//       (409 `subdomainTaken`), on adding the name as well as on checking it. The same organisation may add and verify
//       its own subdomains.
// 3. A lost row may prove control again later: the same rules apply, with the new holder as the holder.
// 4. A check that could not say (`unavailable`) never verifies, breaks, starts a clock or takes anything over.
import { and, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sendingDomains } from '../../db/schema';
import { verificationValue } from '../../lib/dns/record-names';
import type { DomainChecks } from '../../shared/contracts/domain';

/** How long a holder's verification record must have been gone before another organisation's proof wins. */
export const TAKEOVER_AFTER_MS = 72 * 3600 * 1000;

export type DomainRecordRow = typeof sendingDomains.$inferSelect;

export type ClaimDecision =
  | { outcome: 'claim' }
  | { outcome: 'taken'; holder: DomainRecordRow; missingSince: string | null }
  | { outcome: 'subdomainTaken' }
  | { outcome: 'takeover'; holder: DomainRecordRow };

export const emptyChecks = (): DomainChecks => ({ records: {}, verification_missing_since: null, lost_at: null });
export const checksOf = (row: Pick<DomainRecordRow, 'checks'>): DomainChecks => ({ ...emptyChecks(), ...((row.checks as DomainChecks | null) ?? {}) });

/** Another organisation's verified row for a domain above `domain` (example.com for sub.example.com), if any. */
export async function parentHolder(db: Database, orgId: number, domain: string): Promise<DomainRecordRow | undefined> {
  const [row] = await db
    .select()
    .from(sendingDomains)
    .where(and(isNotNull(sendingDomains.verifiedAt), ne(sendingDomains.orgId, orgId), sql`${domain} LIKE '%.' || ${sendingDomains.domain}`))
    .limit(1);
  return row;
}

/** Another organisation's verified row for the same name, if any. */
export async function sameNameHolder(db: Database, orgId: number, domain: string): Promise<DomainRecordRow | undefined> {
  const [row] = await db
    .select()
    .from(sendingDomains)
    .where(and(eq(sendingDomains.domain, domain), isNotNull(sendingDomains.verifiedAt), ne(sendingDomains.orgId, orgId)))
    .limit(1);
  return row;
}

/**
 * Whether a row whose verification record was just found ok may be verified (rule 2). `found` is every TXT record the
 * lookup saw at the verification name.
 */
export async function decideClaim(db: Database, row: DomainRecordRow, found: string[], now: Date): Promise<ClaimDecision> {
  if (await parentHolder(db, row.orgId, row.domain)) return { outcome: 'subdomainTaken' };
  const holder = await sameNameHolder(db, row.orgId, row.domain);
  if (!holder) return { outcome: 'claim' };
  const holderRecordThere = found.some((record) => record.trim() === verificationValue(holder.verificationToken));
  if (holderRecordThere) return { outcome: 'taken', holder, missingSince: null };
  const missingSince = checksOf(holder).verification_missing_since ?? now.toISOString();
  if (now.getTime() - Date.parse(missingSince) >= TAKEOVER_AFTER_MS) return { outcome: 'takeover', holder };
  return { outcome: 'taken', holder, missingSince };
}
