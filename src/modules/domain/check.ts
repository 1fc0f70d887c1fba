// A check of one sending domain: every record looked up now over DNS-over-HTTPS, and what it means for the row. Run
// on demand (POST /domain/:id/check) and by the daily re-check (./recheck.ts), never on the send path.
//   - A rotation's new DKIM record seen ok: the new key becomes the current one and the old is dropped.
//   - Not yet proved: the verification and DKIM records ok prove it, under the claim rules (./claim.ts).
//   - Proved: the verification or DKIM record missing or wrong breaks it (broken_since, one mail to every user);
//     both ok again mend it. `unavailable` (the resolver could not say) changes nothing of this.
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sendingDomains } from '../../db/schema';
import type { Env } from '../../env';
import { checkDkimRecord } from '../../lib/dns/check-dkim';
import { checkDmarcRecord } from '../../lib/dns/check-dmarc';
import { checkSpfRecord } from '../../lib/dns/check-spf';
import { checkVerificationRecord } from '../../lib/dns/check-verification';
import { DEFAULT_DOH_RESOLVER, type DohOptions } from '../../lib/dns/doh';
import type { RecordCheck } from '../../lib/dns/record-check';
import type { DomainChecks, StoredRecordCheck } from '../../shared/contracts/domain';
import { checksOf, decideClaim, type DomainRecordRow } from './claim';
import { domainBrokenMail, domainLostMail, mailOrganisation } from './mails';
import { loadDomainContext, spfMechanismFor } from './org-context';

/** The resolver the checks ask: DNS_RESOLVER_URL, else Cloudflare's JSON API. */
export function dohOptionsOf(env: Pick<Env, 'DNS_RESOLVER_URL'>): DohOptions {
  return { resolverUrl: env.DNS_RESOLVER_URL?.trim() || DEFAULT_DOH_RESOLVER };
}

export type CheckEnv = Pick<Env, 'DNS_RESOLVER_URL' | 'BOUNCE_DOMAIN' | 'SEND_QUEUE' | 'PUBLIC_URL'>;

export interface DomainCheckResult {
  row: DomainRecordRow;
  /** Set when the records prove control but the claim rules refuse it. */
  refused: 'taken' | 'subdomainTaken' | null;
  /** True when this check found the domain broken and told the organisation. */
  notified: boolean;
}

const stored = (check: RecordCheck & { policy?: { applied: string } }): StoredRecordCheck => {
  const out: StoredRecordCheck = { status: check.status };
  if ('found' in check) out.found = check.found;
  if ('problem' in check) out.problem = check.problem;
  if ('reason' in check) out.reason = check.reason;
  if (check.policy) out.policy = check.policy.applied;
  return out;
};

const isBad = (check: StoredRecordCheck | undefined) => check?.status === 'missing' || check?.status === 'wrong';

/** Checks a domain's records now and records what they mean (see the top of this file). */
export async function checkDomain(env: CheckEnv, db: Database, row: DomainRecordRow, now = new Date()): Promise<DomainCheckResult> {
  const options = dohOptionsOf(env);
  const context = await loadDomainContext(db, row.orgId);
  const [verification, dkim, dkimNext, spf, dmarc] = await Promise.all([
    checkVerificationRecord(row.domain, row.verificationToken, options),
    checkDkimRecord(row.domain, row.dkimSelector, row.dkimPublicKey, options),
    row.nextDkimSelector && row.nextDkimPublicKey ? checkDkimRecord(row.domain, row.nextDkimSelector, row.nextDkimPublicKey, options) : null,
    checkSpfRecord(row.domain, spfMechanismFor(context, row.domain), options),
    checkDmarcRecord(row.domain, options),
  ]);
  const stamp = now.toISOString();
  const before = checksOf(row);
  const checks: DomainChecks = {
    ...before,
    records: { verification: stored(verification), dkim: stored(dkim), spf: stored(spf), dmarc: stored(dmarc) },
  };
  const values: Partial<typeof sendingDomains.$inferInsert> = { checkedAt: stamp, updatedAt: stamp };

  // The rotation: the new key's record is published, so receivers can verify with it; the old one goes.
  if (dkimNext) checks.records.dkim_next = stored(dkimNext);
  if (dkimNext?.status === 'ok') {
    Object.assign(values, {
      dkimSelector: row.nextDkimSelector,
      dkimPublicKey: row.nextDkimPublicKey,
      dkimPrivateKey: row.nextDkimPrivateKey,
      nextDkimSelector: null,
      nextDkimPublicKey: null,
      nextDkimPrivateKey: null,
    });
    checks.records.dkim = checks.records.dkim_next;
    delete checks.records.dkim_next;
  }

  // The takeover clock (claim rule 2a) runs while checks find the verification record gone.
  if (verification.status === 'ok') checks.verification_missing_since = null;
  else if (isBad(checks.records.verification)) checks.verification_missing_since = before.verification_missing_since ?? stamp;

  let refused: DomainCheckResult['refused'] = null;
  let notified = false;
  let takeover: DomainRecordRow | null = null;
  const proves = verification.status === 'ok' && checks.records.dkim?.status === 'ok';
  if (!row.verifiedAt) {
    if (proves) {
      const decision = await decideClaim(db, row, verification.status === 'ok' ? verification.found : [], now);
      if (decision.outcome === 'claim' || decision.outcome === 'takeover') {
        Object.assign(values, { verifiedAt: stamp, brokenSince: null, brokenNotifiedAt: null });
        checks.lost_at = null;
        if (decision.outcome === 'takeover') takeover = decision.holder;
      } else {
        refused = decision.outcome;
        // The holder's record is not there: its clock starts now if its own checks had not started it.
        if (decision.outcome === 'taken' && decision.missingSince && !checksOf(decision.holder).verification_missing_since) {
          await db
            .update(sendingDomains)
            .set({ checks: { ...checksOf(decision.holder), verification_missing_since: decision.missingSince } })
            .where(eq(sendingDomains.id, decision.holder.id));
        }
      }
    }
  } else {
    const broken = (['verification', 'dkim'] as const).filter((kind) => isBad(checks.records[kind]));
    if (broken.length > 0) {
      values.brokenSince = row.brokenSince ?? stamp;
      if (!row.brokenNotifiedAt) {
        values.brokenNotifiedAt = stamp;
        notified = true;
      }
    } else if (checks.records.verification?.status === 'ok' && checks.records.dkim?.status === 'ok') {
      values.brokenSince = null;
      values.brokenNotifiedAt = null;
    }
    if (notified) {
      // Written first (and only if no other check told them meanwhile), so a break is told once.
      const [claimed] = await db
        .update(sendingDomains)
        .set({ brokenNotifiedAt: stamp })
        .where(and(eq(sendingDomains.id, row.id), isNull(sendingDomains.brokenNotifiedAt)))
        .returning({ id: sendingDomains.id });
      notified = claimed !== undefined;
      if (!notified) delete values.brokenNotifiedAt;
      else {
        await mailOrganisation(env, db, row.orgId, (org) => domainBrokenMail(row.domain, org.name, broken, org.domainsUrl));
      }
    }
  }

  values.checks = checks;
  const statements = [];
  if (takeover) {
    const lostChecks: DomainChecks = { ...checksOf(takeover), lost_at: stamp };
    statements.push(
      db
        .update(sendingDomains)
        .set({ verifiedAt: null, brokenSince: null, brokenNotifiedAt: null, checks: lostChecks, updatedAt: stamp })
        .where(and(eq(sendingDomains.id, takeover.id), isNotNull(sendingDomains.verifiedAt))),
    );
  }
  const update = db.update(sendingDomains).set(values).where(eq(sendingDomains.id, row.id)).returning();
  let updated: DomainRecordRow;
  try {
    const results = await db.batch([...statements, update] as unknown as [typeof update]);
    [updated] = (results as unknown as DomainRecordRow[][]).at(-1)!;
  } catch (error) {
    // Another organisation verified the name between our read and this write (the one-verified-row index).
    if (!String(error).includes('UNIQUE')) throw error;
    const { verifiedAt: _v, brokenSince: _b, brokenNotifiedAt: _n, ...rest } = values;
    [updated] = await db.update(sendingDomains).set(rest).where(eq(sendingDomains.id, row.id)).returning();
    return { row: updated, refused: 'taken', notified };
  }
  if (takeover) {
    const holder = takeover;
    await mailOrganisation(env, db, holder.orgId, (org) => domainLostMail(holder.domain, org.name, org.domainsUrl));
  }
  return { row: updated, refused, notified };
}
