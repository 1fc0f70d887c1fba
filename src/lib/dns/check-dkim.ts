// The DKIM key record of a selector, compared with the key Relay signs with by its p= value (RFC 6376 3.6.1):
// spaces in it and the record's split into strings do not matter, the key does.
import { type DohOptions, lookupTxt } from './doh';
import { notFound, type RecordCheck } from './record-check';
import { dkimName } from './record-names';
import { parseTagList } from './tag-list';

const stripSpaces = (value: string) => value.replace(/\s+/g, '');

/** Checks `<selector>._domainkey.<domain>` holds one RSA key record whose p= is `publicKey` (base64 SPKI). */
export async function checkDkimRecord(domain: string, selector: string, publicKey: string, options: DohOptions): Promise<RecordCheck> {
  const name = dkimName(selector, domain);
  const lookup = await lookupTxt(name, options);
  if (lookup.status !== 'ok') return notFound(name, lookup);
  const found = lookup.records;
  // Verifiers pick either of two key records at a selector: the signature would pass or fail by chance.
  if (found.length > 1) return { status: 'wrong', name, found, problem: 'several_records' };
  const tags = parseTagList(found[0]);
  const version = tags?.get('v');
  const keyType = tags?.get('k') ?? 'rsa';
  const key = tags?.get('p');
  if (!tags || key === undefined || (version !== undefined && version !== 'DKIM1') || keyType.toLowerCase() !== 'rsa') {
    return { status: 'wrong', name, found, problem: 'not_a_dkim_key' };
  }
  if (stripSpaces(key) === '') return { status: 'wrong', name, found, problem: 'key_revoked' };
  if (stripSpaces(key) !== stripSpaces(publicKey)) return { status: 'wrong', name, found, problem: 'key_differs' };
  return { status: 'ok', name, found };
}
