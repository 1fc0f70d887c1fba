// The proof that an organisation controls a domain: the verification TXT record carries the domain's token.
import { type DohOptions, lookupTxt } from './doh';
import { notFound, type RecordCheck } from './record-check';
import { verificationName, verificationValue } from './record-names';

/** Checks `_relay-verification.<domain>` for `relay-verification=<token>` (other records beside it do no harm). */
export async function checkVerificationRecord(domain: string, token: string, options: DohOptions): Promise<RecordCheck> {
  const name = verificationName(domain);
  const lookup = await lookupTxt(name, options);
  if (lookup.status !== 'ok') return notFound(name, lookup);
  const expected = verificationValue(token);
  if (lookup.records.some((r) => r.trim() === expected)) return { status: 'ok', name, found: lookup.records };
  return { status: 'wrong', name, found: lookup.records, problem: 'value_differs' };
}
