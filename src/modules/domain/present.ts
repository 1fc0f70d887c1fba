// A sending_domains row as the API answers it (src/shared/contracts/domain.ts domainRowSchema): the records to
// publish, each with its last check, the status the claim rules and checks left, and the alignment.
import { recordsToPublish, type TxtRecordToPublish, txtRecord } from '../../lib/dns/records-to-publish';
import { dkimName } from '../../lib/dns/record-names';
import { dkimRecordValue } from '../../lib/dns/records-to-publish';
import {
  type DomainRecord,
  type DomainRecordKind,
  type DomainRow,
  type DomainStatus,
  SPF_RELAY_UNKNOWN,
  type StoredRecordCheck,
} from '../../shared/contracts/domain';
import { checksOf, type DomainRecordRow } from './claim';
import { alignmentOf, type DomainOrgContext, sendersOn, spfMechanismFor } from './org-context';

/** pending until proved; verified, or broken while a needed record is broken; lost once another organisation took it. */
export function domainStatus(row: Pick<DomainRecordRow, 'verifiedAt' | 'brokenSince' | 'checks'>): DomainStatus {
  if (row.verifiedAt) return row.brokenSince ? 'broken' : 'verified';
  return checksOf(row).lost_at ? 'lost' : 'pending';
}

/** The DMARC address the starting record sends aggregate reports to. */
export const dmarcReportAddress = (domain: string) => `dmarc@${domain}`;

function record(kind: DomainRecordKind, published: TxtRecordToPublish, check: StoredRecordCheck | undefined, required: boolean): DomainRecord {
  const out: DomainRecord = {
    kind,
    type: 'TXT',
    name: published.name,
    value: published.value,
    strings: published.strings,
    zone_value: published.zoneValue,
    status: check?.status ?? 'unchecked',
    required,
  };
  if (check?.status === 'wrong') {
    out.found = check.found ?? [];
    if (check.problem) out.problem = check.problem;
  }
  if (check?.status === 'unavailable' && check.reason) out.reason = check.reason;
  return out;
}

export function presentDomain(row: DomainRecordRow, context: DomainOrgContext, env: { BOUNCE_DOMAIN?: string }): DomainRow {
  const checks = checksOf(row);
  const mechanism = spfMechanismFor(context, row.domain);
  const spfCheck = checks.records.spf;
  const existingSpf = spfCheck?.status === 'wrong' || spfCheck?.status === 'ok' ? (spfCheck.found?.[0] ?? null) : null;
  const published = recordsToPublish({
    domain: row.domain,
    verificationToken: row.verificationToken,
    dkimSelector: row.dkimSelector,
    dkimPublicKey: row.dkimPublicKey,
    spfMechanism: mechanism,
    existingSpf,
    dmarcReportAddress: dmarcReportAddress(row.domain),
  });
  const records: DomainRecord[] = [
    record('verification', published.verification, checks.records.verification, true),
    record('dkim', published.dkim, checks.records.dkim, true),
  ];
  if (row.nextDkimSelector && row.nextDkimPublicKey) {
    const next = txtRecord(dkimName(row.nextDkimSelector, row.domain), dkimRecordValue(row.nextDkimPublicKey));
    records.push(record('dkim_next', next, checks.records.dkim_next, false));
  }
  if (published.spf.record) {
    records.push(record('spf', published.spf.record, spfCheck, false));
  } else {
    // The relay is unknown: nothing to give but the name; the note tells the console to explain what to ask for.
    const spf = record('spf', { type: 'TXT', name: published.spf.name, value: '', strings: [], zoneValue: '' }, spfCheck, false);
    records.push({ ...spf, value: null, zone_value: null, note: SPF_RELAY_UNKNOWN });
  }
  records.push(record('dmarc', published.dmarc, checks.records.dmarc, false));
  return {
    id: row.id,
    domain: row.domain,
    status: domainStatus(row),
    verified_at: row.verifiedAt,
    dkim_selector: row.dkimSelector,
    next_dkim_selector: row.nextDkimSelector,
    records,
    alignment: { ...alignmentOf(context, env, row.domain, row.verifiedAt !== null), dmarc_policy: checks.records.dmarc?.policy ?? null },
    checked_at: row.checkedAt,
    broken_since: row.brokenSince,
    senders: sendersOn(context, row.domain).length,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
