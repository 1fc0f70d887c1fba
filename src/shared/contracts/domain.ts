import { z } from 'zod';
import { answer, moment, stampsShape, whole } from '../answer-schema';

// Sending domains (issue 37): a domain an organisation sends from, proved by a TXT record, signed with Relay's DKIM
// key for it, and its records checked over DNS-over-HTTPS daily and on demand (src/modules/domain, src/lib/dns).

/** The records an organisation publishes for a domain, in the order the console shows them. */
export const DOMAIN_RECORD_KINDS = ['verification', 'dkim', 'dkim_next', 'spf', 'dmarc'] as const;
export type DomainRecordKind = (typeof DOMAIN_RECORD_KINDS)[number];

/** A record's last check: never `ok` when the resolver could not say (`unavailable`); `unchecked` before the first. */
export const RECORD_STATUSES = ['ok', 'missing', 'wrong', 'unavailable', 'unchecked'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/**
 * pending: not yet proved (the verification record not seen); verified: proved and every needed record ok;
 * broken: proved once, but a needed record (verification, DKIM) is now missing or wrong; lost: another organisation
 * proved control after this one's record had gone (the claim rules, src/modules/domain/claim.ts).
 */
export const DOMAIN_STATUSES = ['pending', 'verified', 'broken', 'lost'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export const DOMAIN_MESSAGES = {
  domain: 'Must be a domain name such as mail.example.com',
  taken: 'This domain is verified by another organisation',
  subdomainTaken: 'This domain is under a domain another organisation verified',
  exists: 'This organisation already has this domain',
  platformDomain: "This is the platform's own domain: add a domain of your own",
  notVerified: 'Verify the domain first',
  rotationPending: 'A key rotation is already under way: publish the new DKIM record and check again',
  unverifiedSender: 'This sender is not on a verified domain: receivers may reject or flag its mail unless your relay signs it',
  brokenSender: "This sender's domain has a broken DNS record: fix it on the Domains screen",
} as const;

/** POST /domain: the domain name (lower-cased; an international name may be given in Unicode or punycode). */
export const domainCreateSchema = z
  .object({
    domain: z.string({ error: DOMAIN_MESSAGES.domain }).trim().toLowerCase().min(3, DOMAIN_MESSAGES.domain).max(253, DOMAIN_MESSAGES.domain),
  })
  .strict();
export type DomainCreate = z.input<typeof domainCreateSchema>;

/** One record to publish with its last check. */
export const domainRecordSchema = z
  .object({
    kind: z.enum(DOMAIN_RECORD_KINDS),
    type: z.literal('TXT'),
    name: z.string().describe('The record name to create (fully qualified)'),
    value: z.string().nullable().describe('The value as one text; null for SPF when the relay is unknown (see note)'),
    strings: z.array(z.string()).describe('The value split into strings of at most 255 bytes, as DNS stores a long TXT record'),
    zone_value: z.string().nullable().describe('The strings quoted, as a zone file takes them'),
    status: z.enum(RECORD_STATUSES),
    found: z.array(z.string()).optional().describe('What the check found at the name, when it was wrong'),
    problem: z.string().optional().describe('Why a record found is wrong (a code: value_differs, key_differs, several_records, ...)'),
    reason: z.string().optional().describe('Why the check could not say (timeout, SERVFAIL, ...)'),
    required: z.boolean().describe('Needed for the domain to count as verified (verification, DKIM); SPF and DMARC are advised'),
    note: z.string().optional().describe('A hint: e.g. the relay is unknown, so SPF is explained instead of given'),
  })
  .strict();
export type DomainRecord = z.infer<typeof domainRecordSchema>;

/** One record's stored check (src/modules/domain/check.ts): its status and what was found, the problem or the reason. */
export interface StoredRecordCheck {
  status: Exclude<RecordStatus, 'unchecked'>;
  found?: string[];
  problem?: string;
  reason?: string;
  /** DMARC: the policy that applies to the domain (p=, or the organisational domain's sp=). */
  policy?: string;
}

/** sending_domains.checks: the last check of each record, and the moments the claim rules need. */
export interface DomainChecks {
  records: Partial<Record<DomainRecordKind, StoredRecordCheck>>;
  /** Since when checks have found the verification record missing or wrong (null while ok or unchecked). */
  verification_missing_since: string | null;
  /** When another organisation took the domain over (the row is `lost` until it proves control again). */
  lost_at: string | null;
}

/** The note on the SPF record when the relay is unknown: what to publish is explained instead of given. */
export const SPF_RELAY_UNKNOWN = 'relay_unknown';

/** DMARC alignment of mail from this domain as Relay sends it: DKIM d= is the domain itself; SPF follows the bounce domain. */
export const domainAlignmentSchema = z
  .object({
    dkim: z.enum(['aligned', 'not_aligned', 'not_signing']),
    spf: z.enum(['aligned', 'not_aligned']),
    dmarc_policy: z.string().nullable().describe('The p= of the DMARC record that applies, null when there is none'),
  })
  .strict();

export const domainRowSchema = answer({
  id: whole(),
  domain: z.string(),
  status: z.enum(DOMAIN_STATUSES),
  verified_at: moment().nullable(),
  dkim_selector: z.string(),
  next_dkim_selector: z.string().nullable().describe('The selector of a key rotation under way'),
  records: z.array(domainRecordSchema),
  alignment: domainAlignmentSchema.nullable(),
  checked_at: moment().nullable(),
  broken_since: moment().nullable(),
  senders: whole().describe("The organisation's senders on this domain"),
  ...stampsShape,
});
export type DomainRow = z.infer<typeof domainRowSchema>;

/** A sender's standing with the Domains screen: shown beside senders and in the broadcast and test-message forms. */
export const SENDER_DOMAIN_STATES = ['verified', 'unverified', 'broken', 'unknown'] as const;
export type SenderDomainState = (typeof SENDER_DOMAIN_STATES)[number];
