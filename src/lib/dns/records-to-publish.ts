// The records an organisation publishes for a sending domain, rendered for copying: each with its name, its value
// as one text and as a zone file wants it (quoted strings of at most 255 bytes: a 2048-bit DKIM key needs two).
import { normalizeName } from './doh';
import { dkimName, dmarcName, verificationName, verificationValue } from './record-names';
import { quoteTxtValue, splitTxtValue } from './txt-strings';

export interface TxtRecordToPublish {
  type: 'TXT';
  name: string;
  /** The value as one text (what most DNS hosts' forms take). */
  value: string;
  /** The value's character-strings, each at most 255 bytes. */
  strings: string[];
  /** The strings quoted and escaped, space-separated (a zone file's or a BIND-style form's TXT data). */
  zoneValue: string;
}

/** The SPF advice: the relay's mechanism and a record to start from; both null when the relay is unknown. */
export interface SpfAdvice {
  name: string;
  mechanism: string | null;
  /** A whole record to publish: the existing one with the mechanism added, or a new one with `~all`. */
  record: TxtRecordToPublish | null;
}

export interface RecordsToPublish {
  verification: TxtRecordToPublish;
  dkim: TxtRecordToPublish;
  spf: SpfAdvice;
  dmarc: TxtRecordToPublish;
}

export interface PublishInput {
  domain: string;
  verificationToken: string;
  dkimSelector: string;
  /** The DKIM public key, base64 of its SubjectPublicKeyInfo (the p= value). */
  dkimPublicKey: string;
  /** The SPF mechanism the organisation's relay needs (e.g. `include:sendgrid.net`); null when unknown. */
  spfMechanism: string | null;
  /** The domain's SPF record as found by a check, if any, so the advice extends it rather than adding a second. */
  existingSpf?: string | null;
  /** Where DMARC aggregate reports go (an address; receivers send rua reports there). */
  dmarcReportAddress: string;
}

/** A TXT record in every form the console shows. */
export function txtRecord(name: string, value: string): TxtRecordToPublish {
  return { type: 'TXT', name, value, strings: splitTxtValue(value), zoneValue: quoteTxtValue(value) };
}

/** The DKIM key record's value for an RSA public key. */
export const dkimRecordValue = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey.replace(/\s+/g, '')}`;

/** A starting DMARC record: monitor only (p=none), aggregate reports to the given address. */
export const dmarcRecordValue = (reportAddress: string) => `v=DMARC1; p=none; rua=mailto:${reportAddress}`;

/**
 * An SPF record that authorises `mechanism`: the existing record with it added just before its `all` (or at the
 * end), unchanged when it is already there; a new `v=spf1 <mechanism> ~all` when there is none.
 */
export function spfRecordWith(mechanism: string, existing?: string | null): string {
  if (!existing) return `v=spf1 ${mechanism} ~all`;
  const terms = existing.trim().split(/\s+/);
  if (terms.some((t) => t.toLowerCase().replace(/^\+/, '') === mechanism.toLowerCase())) return terms.join(' ');
  const all = terms.findIndex((t) => /^[+~?-]?all$/i.test(t));
  // Terms after `all` (or a redirect= that only applies without one) stay where they were.
  terms.splice(all < 0 ? terms.length : all, 0, mechanism);
  return terms.join(' ');
}

/** Every record to publish for a domain. */
export function recordsToPublish(input: PublishInput): RecordsToPublish {
  const domain = normalizeName(input.domain);
  return {
    verification: txtRecord(verificationName(domain), verificationValue(input.verificationToken)),
    dkim: txtRecord(dkimName(input.dkimSelector, domain), dkimRecordValue(input.dkimPublicKey)),
    spf: {
      name: domain,
      mechanism: input.spfMechanism,
      record: input.spfMechanism ? txtRecord(domain, spfRecordWith(input.spfMechanism, input.existingSpf)) : null,
    },
    dmarc: txtRecord(dmarcName(domain), dmarcRecordValue(input.dmarcReportAddress)),
  };
}
