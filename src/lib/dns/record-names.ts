// Where each record of a sending domain lives and what the verification record says: one place for each rule.
import { normalizeName } from './doh';

/**
 * The proof of control: a TXT record `relay-verification=<token>` at `_relay-verification.<domain>`. An underscore
 * name of its own (RFC 8552) rather than the domain's apex, which already holds SPF and others' verification records
 * and cannot be a CNAME: the record cannot clash with anything, and a subdomain is proved by its own record.
 */
export const verificationName = (domain: string) => `_relay-verification.${normalizeName(domain)}`;
export const verificationValue = (token: string) => `relay-verification=${token}`;

/** The DKIM key record of a selector (RFC 6376 3.6.2.1). */
export const dkimName = (selector: string, domain: string) => `${selector.toLowerCase()}._domainkey.${normalizeName(domain)}`;

/** The DMARC policy record of a domain (RFC 7489 6.1). */
export const dmarcName = (domain: string) => `_dmarc.${normalizeName(domain)}`;
