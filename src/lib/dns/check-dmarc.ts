// The domain's DMARC record (RFC 7489 6): present and parseable, and its policy. A subdomain without a record of its
// own is covered by its Organizational Domain's record (6.6.3), whose sp= (else p=) then applies.
import { organizationalDomain } from './alignment';
import { type DohOptions, lookupTxt, normalizeName } from './doh';
import { notFound, type RecordCheck } from './record-check';
import { dmarcName } from './record-names';
import { parseTagList } from './tag-list';

export type DmarcDisposition = 'none' | 'quarantine' | 'reject';

export interface DmarcPolicy {
  p: DmarcDisposition;
  sp: DmarcDisposition | null;
  /** The policy that applies to the checked domain: sp= when the record is the Organizational Domain's. */
  applied: DmarcDisposition;
  /** Where aggregate reports go (the rua= URIs). */
  rua: string[];
  pct: number;
  adkim: 'r' | 's';
  aspf: 'r' | 's';
  /** True when the record is the Organizational Domain's, not the checked domain's own. */
  inherited: boolean;
}

export type DmarcCheck = RecordCheck & { policy?: DmarcPolicy };

const DISPOSITIONS = ['none', 'quarantine', 'reject'] as const;
const disposition = (value: string | undefined) => DISPOSITIONS.find((d) => d === value?.toLowerCase()) ?? null;
const alignmentMode = (value: string | undefined) => (value?.toLowerCase() === 's' ? 's' : 'r');

/** The DMARC records among a name's TXT records. */
export const dmarcRecords = (records: string[]) => records.filter((r) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(r.trim()));

/** Reads a DMARC record's policy; null when it does not parse or has no valid p=. */
export function parseDmarc(record: string, inherited = false): DmarcPolicy | null {
  const tags = parseTagList(record);
  // v=DMARC1 must be the first tag (RFC 7489 6.4).
  if (!tags) return null;
  if (tags.keys().next().value !== 'v') return null;
  const p = disposition(tags.get('p'));
  if (!p) return null;
  const sp = tags.has('sp') ? disposition(tags.get('sp')) : null;
  const pct = tags.has('pct') ? Number(tags.get('pct')) : 100;
  if ((tags.has('sp') && !sp) || !Number.isInteger(pct) || pct < 0 || pct > 100) return null;
  const rua = (tags.get('rua') ?? '')
    .split(',')
    .map((uri) => uri.trim())
    .filter(Boolean);
  return { p, sp, applied: inherited ? (sp ?? p) : p, rua, pct, adkim: alignmentMode(tags.get('adkim')), aspf: alignmentMode(tags.get('aspf')), inherited };
}

/** Checks `_dmarc.<domain>`, falling back to the Organizational Domain's record as receivers do. */
export async function checkDmarcRecord(domain: string, options: DohOptions): Promise<DmarcCheck> {
  const own = await checkDmarcAt(dmarcName(domain), false, options);
  const organization = organizationalDomain(domain);
  if (own.status !== 'missing' || organization === normalizeName(domain)) return own;
  const inherited = await checkDmarcAt(dmarcName(organization), true, options);
  // Nothing at either name: the domain's own name is where the record belongs.
  return inherited.status === 'missing' ? own : inherited;
}

async function checkDmarcAt(name: string, inherited: boolean, options: DohOptions): Promise<DmarcCheck> {
  const lookup = await lookupTxt(name, options);
  if (lookup.status !== 'ok') return notFound(name, lookup);
  const found = dmarcRecords(lookup.records);
  if (found.length === 0) return { status: 'missing', name };
  // Several records: receivers apply no policy at all (RFC 7489 6.6.3).
  if (found.length > 1) return { status: 'wrong', name, found, problem: 'several_records' };
  const policy = parseDmarc(found[0], inherited);
  if (!policy) return { status: 'wrong', name, found, problem: 'dmarc_invalid' };
  return { status: 'ok', name, found, policy };
}
