// What a check of one DNS record answers. `unavailable` (the resolver could not say: a timeout, SERVFAIL, an HTTP
// error) is its own status so that it is never shown as ok, nor as missing.
import type { DnsLookup } from './doh';

/** Why a record that is there is not right (the console words each one). */
export type RecordProblem =
  /** Verification: records at the name, none with this domain's token. */
  | 'value_differs'
  /** DKIM: a key, not this selector's. */
  | 'key_differs'
  /** DKIM: an empty p= (the key was revoked). */
  | 'key_revoked'
  /** DKIM: not a DKIM RSA key record (not tag=value, another version or key type, no p=). */
  | 'not_a_dkim_key'
  /** SPF, DMARC, DKIM: more than one such record, which receivers treat as an error (RFC 7208 4.5, RFC 7489 6.6.3). */
  | 'several_records'
  /** SPF: the record does not authorise the relay (the mechanism is neither in it nor in what it includes). */
  | 'mechanism_absent'
  /** SPF: the mechanism comes after `all`, where it is never reached. */
  | 'mechanism_after_all'
  /** DMARC: a v=DMARC1 record that does not parse, or whose p= is not none, quarantine or reject. */
  | 'dmarc_invalid';

export type RecordCheck =
  | { status: 'ok'; name: string; found: string[] }
  | { status: 'missing'; name: string }
  | { status: 'wrong'; name: string; found: string[]; problem: RecordProblem }
  | { status: 'unavailable'; name: string; reason: string };

export type RecordStatus = RecordCheck['status'];

/** The check of a lookup that found nothing: missing (no such name, or no such record) or unavailable. */
export function notFound(name: string, lookup: Exclude<DnsLookup, { status: 'ok' }>): RecordCheck {
  return lookup.status === 'unavailable' ? { status: 'unavailable', name, reason: lookup.reason } : { status: 'missing', name };
}
