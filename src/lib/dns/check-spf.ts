// The domain's SPF record (RFC 7208) authorises the organisation's relay: it holds the relay's mechanism (e.g.
// `include:sendgrid.net`), directly or in a record it includes or redirects to (an organisation often includes its
// own `_spf` record that includes the relay). Terms after `all` are never evaluated, so a mechanism there is wrong.
import { type DohOptions, lookupTxt, normalizeName } from './doh';
import { notFound, type RecordCheck } from './record-check';

/** SPF's limit on DNS-querying terms one check may follow (RFC 7208 4.6.4). */
const MAX_LOOKUPS = 10;

export type SpfCheck = RecordCheck & {
  /** The mechanism looked for; null when the relay is unknown. */
  mechanism: string | null;
  /** Set when the relay is unknown: only the record itself was checked (one, parseable), not what it authorises. */
  note?: 'relay_unknown';
};

/** The records among a name's TXT records that are SPF records. */
export const spfRecords = (records: string[]) => records.filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));

/** A term as SPF compares it: case-insensitive, the default `+` qualifier dropped. */
const normalizeTerm = (term: string) => term.toLowerCase().replace(/^\+/, '');
const isAll = (term: string) => /^[~?-]?all$/.test(term);

/** The terms of a record that are evaluated (up to and including `all`), and those after it. */
function splitAtAll(record: string): { reached: string[]; unreached: string[] } {
  const terms = record.trim().split(/\s+/).slice(1).map(normalizeTerm);
  const all = terms.findIndex(isAll);
  return all < 0 ? { reached: terms, unreached: [] } : { reached: terms.slice(0, all + 1), unreached: terms.slice(all + 1) };
}

/**
 * Checks the domain has exactly one SPF record and that it authorises `mechanism` (null: the relay is unknown, so
 * only the record is checked and the answer says so).
 */
export async function checkSpfRecord(domain: string, mechanism: string | null, options: DohOptions): Promise<SpfCheck> {
  const name = normalizeName(domain);
  const lookup = await lookupTxt(name, options);
  if (lookup.status !== 'ok') return { ...notFound(name, lookup), mechanism };
  const found = spfRecords(lookup.records);
  if (found.length === 0) return { status: 'missing', name, mechanism };
  if (found.length > 1) return { status: 'wrong', name, found, problem: 'several_records', mechanism };
  if (mechanism === null) return { status: 'ok', name, found, mechanism, note: 'relay_unknown' };

  const wanted = normalizeTerm(mechanism.trim());
  const search = await authorises(found[0], wanted, { lookups: 0, seen: new Set([name]) }, options);
  if (search === 'yes') return { status: 'ok', name, found, mechanism };
  if (search === 'unavailable') return { status: 'unavailable', name, reason: 'a record the SPF record includes could not be looked up', mechanism };
  const problem = splitAtAll(found[0]).unreached.includes(wanted) ? 'mechanism_after_all' : 'mechanism_absent';
  return { status: 'wrong', name, found, problem, mechanism };
}

type Search = 'yes' | 'no' | 'unavailable';

/** Whether a record reaches `wanted`: among its evaluated terms, or in the records its includes and redirect name. */
async function authorises(record: string, wanted: string, budget: { lookups: number; seen: Set<string> }, options: DohOptions): Promise<Search> {
  const { reached } = splitAtAll(record);
  if (reached.includes(wanted)) return 'yes';
  const includes = reached.filter((t) => t.startsWith('include:')).map((t) => t.slice('include:'.length));
  // redirect= applies only when the record has no `all` (RFC 7208 6.1).
  const redirect = reached.some(isAll) ? [] : reached.filter((t) => t.startsWith('redirect=')).map((t) => t.slice('redirect='.length));
  let unavailable = false;
  for (const target of [...includes, ...redirect]) {
    // Macros (%{d}) expand per message: nothing to follow here.
    if (target.includes('%') || budget.seen.has(normalizeName(target))) continue;
    if (++budget.lookups > MAX_LOOKUPS) break;
    budget.seen.add(normalizeName(target));
    const lookup = await lookupTxt(target, options);
    if (lookup.status === 'unavailable') {
      unavailable = true;
      continue;
    }
    const nested = lookup.status === 'ok' ? spfRecords(lookup.records) : [];
    if (nested.length !== 1) continue;
    const result = await authorises(nested[0], wanted, budget, options);
    if (result === 'yes') return 'yes';
    if (result === 'unavailable') unavailable = true;
  }
  return unavailable ? 'unavailable' : 'no';
}
