import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sameOrg } from '../../db/same-org';
import {
  blacklist,
  contactAddresses,
  contacts,
  organizations,
  senders,
  smsOptOuts,
  subscriptions,
  templateAttachments,
  templates,
  unsubscribes,
} from '../../db/schema';
import { normalizeAddress, PHONE_PATTERN, type AddressType } from '../../shared/address';
import { addressKey } from '../blacklist/lookup';
import type { SendMessageInput } from '../../shared/contracts/transactional';
import { currentLedgerColumn, registeredRow, type RegisteredRow } from '../ledger/registry';

// Everything a call's messages name, read in one D1 round trip whatever their number (a batch of 500 costs what one
// message costs): senders, templates with their files, files named by id, categories, contacts named by id or found
// by the recipient's address, and what suppresses the addresses (blacklist with its reason, STOP replies, a
// category's unsubscribes). Every row is the organisation's: a foreign id finds nothing and is refused as unknown.

type Sender = { id: number; type: string; value: string; name: string | null; integrationId: number };
type Template = { id: number; type: string; subject: string | null; body: string; bodyPlain: string | null };
type File = { id: number; templateId: number; fileName: string; fileKey: string; contentType: string; size: number };

export interface SendReferences {
  senders: Map<number, Sender>;
  templates: Map<number, Template>;
  /** Files by their own id (attachment_ids), and each template's files in order. */
  files: Map<number, File>;
  templateFiles: Map<number, File[]>;
  subscriptions: Map<number, { id: number; name: string }>;
  /** Contacts that exist, by id. */
  contacts: Set<number>;
  /** A contact by its address's addressKey (blacklist/lookup.ts). */
  contactOfAddress: Map<string, number>;
  /** Blacklisted addresses by addressKey, with the entry's reason (null: added by a person). */
  blacklisted: Map<string, string | null>;
  /** Numbers that replied STOP. */
  optedOut: Set<string>;
  /** `${contactId}:${subscriptionId}` pairs that unsubscribed. */
  unsubscribed: Set<string>;
  /** The organisation's tracking defaults. */
  tracking: { opens: boolean; clicks: boolean };
  /** Its newest ledger, where the messages go (null before its first is made). */
  currentLedger: RegisteredRow | null;
}

const ids = (values: (number | undefined)[]) => JSON.stringify([...new Set(values.filter((v): v is number => typeof v === 'number'))]);

/** The addresses of a message that the blacklist and the contacts are searched by. */
export function addressesOf(input: SendMessageInput, type: AddressType): { type: AddressType; value: string }[] {
  const copies = type === 'email' ? [...(input.cc ?? []), ...(input.bcc ?? [])] : [];
  return [input.to, ...copies].map((value) => ({ type, value: normalizeAddress(type, value) }));
}

/**
 * The channel a recipient's address reads as: a phone number (+ and digits) or an email address. The sender decides
 * the message's channel; a `to` of the other kind is refused (prepare.ts), so reading it this way finds the same rows.
 */
export const addressTypeOf = (to: string): AddressType => (PHONE_PATTERN.test(to.trim()) ? 'phone' : 'email');

/**
 * Reads what `inputs` name, in one D1 round trip. Rows named by id are sought by their key, the organisation checked on
 * each (sameOrg): with a plain org_id condition SQLite walked all of the organisation's senders, templates and
 * subscriptions on every call (D1 rows read growing with the organisation's templates: bench:transactional).
 */
export async function loadReferences(db: Database, orgId: number, inputs: SendMessageInput[]): Promise<SendReferences> {
  const templateIds = ids(inputs.map((i) => i.template_id));
  const addresses = inputs.flatMap((input) => addressesOf(input, addressTypeOf(input.to)));
  const addressJson = JSON.stringify(addresses.map((a) => ({ t: a.type, v: a.value })));
  const phones = JSON.stringify(addresses.filter((a) => a.type === 'phone').map((a) => a.value));
  const subscriptionIds = ids(inputs.map((i) => i.subscription_id));
  const attachmentIds = ids(inputs.flatMap((i) => i.attachment_ids ?? []));
  const contactIds = ids(inputs.map((i) => i.contact_id));
  const hasTemplates = templateIds !== '[]';
  const hasSubscriptions = subscriptionIds !== '[]';
  // Only what this call names is asked: a typical send (a template to an address) is six statements, not eleven.
  const { orgRows, senderRows, templateRows, fileRows, ownFileRows, subscriptionRows, contactRows, addressRows, blacklistRows, optOutRows, unsubscribeRows } =
    await batchNamed(db, {
      orgRows: db
        .select({ opens: organizations.trackOpens, clicks: organizations.trackClicks, ledgerKey: organizations.ledgerKey, ledger: currentLedgerColumn(orgId) })
        .from(organizations)
        .where(eq(organizations.id, orgId)),
      senderRows: db
        .select({ id: senders.id, type: senders.type, value: senders.value, name: senders.name, integrationId: senders.integrationId })
        .from(senders)
        .where(and(sameOrg(senders.orgId, orgId), sql`${senders.id} IN (SELECT value FROM json_each(${ids(inputs.map((i) => i.sender_id))}))`)),
      templateRows: hasTemplates
        ? db
            .select({ id: templates.id, type: templates.type, subject: templates.subject, body: templates.body, bodyPlain: templates.bodyPlain })
            .from(templates)
            .where(and(sameOrg(templates.orgId, orgId), sql`${templates.id} IN (SELECT value FROM json_each(${templateIds}))`))
        : null,
      fileRows: hasTemplates
        ? db
            .select()
            .from(templateAttachments)
            .where(sql`${templateAttachments.orgId} = ${orgId} AND ${templateAttachments.templateId} IN (SELECT value FROM json_each(${templateIds}))`)
            .orderBy(templateAttachments.id)
        : null,
      ownFileRows:
        attachmentIds !== '[]'
          ? db
              .select()
              .from(templateAttachments)
              .where(and(sameOrg(templateAttachments.orgId, orgId), sql`${templateAttachments.id} IN (SELECT value FROM json_each(${attachmentIds}))`))
          : null,
      subscriptionRows: hasSubscriptions
        ? db
            .select({ id: subscriptions.id, name: subscriptions.name })
            .from(subscriptions)
            .where(and(sameOrg(subscriptions.orgId, orgId), sql`${subscriptions.id} IN (SELECT value FROM json_each(${subscriptionIds}))`))
        : null,
      contactRows:
        contactIds !== '[]'
          ? db
              .select({ id: contacts.id })
              .from(contacts)
              .where(and(sameOrg(contacts.orgId, orgId), sql`${contacts.id} IN (SELECT value FROM json_each(${contactIds}))`))
          : null,
      addressRows: db
        .select({ contactId: contactAddresses.contactId, type: contactAddresses.type, value: contactAddresses.value })
        .from(contactAddresses)
        .where(
          sql`${contactAddresses.orgId} = ${orgId} AND (${contactAddresses.type}, ${contactAddresses.value}) IN (SELECT value ->> 't', value ->> 'v' FROM json_each(${addressJson}))`,
        ),
      blacklistRows: db
        .select({ type: blacklist.type, value: blacklist.value, reason: blacklist.reason })
        .from(blacklist)
        .where(
          sql`${blacklist.orgId} = ${orgId} AND (${blacklist.type}, ${blacklist.value}) IN (SELECT value ->> 't', value ->> 'v' FROM json_each(${addressJson}))`,
        ),
      optOutRows:
        phones !== '[]'
          ? db
              .select({ phone: smsOptOuts.phone })
              .from(smsOptOuts)
              .where(sql`${smsOptOuts.orgId} = ${orgId} AND ${smsOptOuts.phone} IN (SELECT value FROM json_each(${phones}))`)
          : null,
      unsubscribeRows: hasSubscriptions
        ? db
            .select({ contactId: unsubscribes.contactId, subscriptionId: unsubscribes.subscriptionId })
            .from(unsubscribes)
            .where(
              sql`${unsubscribes.orgId} = ${orgId} AND ${unsubscribes.subscriptionId} IN (SELECT value FROM json_each(${subscriptionIds}))
              AND ${unsubscribes.contactId} IN (SELECT contact_id FROM contact_addresses WHERE org_id = ${orgId}
                AND (type, value) IN (SELECT value ->> 't', value ->> 'v' FROM json_each(${addressJson}))
                UNION SELECT value FROM json_each(${contactIds}))`,
            )
        : null,
    });
  const templateFiles = new Map<number, File[]>();
  for (const f of fileRows) templateFiles.set(f.templateId, [...(templateFiles.get(f.templateId) ?? []), f]);
  return {
    senders: new Map(senderRows.map((r) => [r.id, r])),
    templates: new Map(templateRows.map((t) => [t.id, t])),
    files: new Map(ownFileRows.map((f) => [f.id, f])),
    templateFiles,
    subscriptions: new Map(subscriptionRows.map((s) => [s.id, s])),
    contacts: new Set(contactRows.map((r) => Number(r.id))),
    contactOfAddress: new Map(addressRows.map((a) => [addressKey(a.type as AddressType, a.value), a.contactId])),
    blacklisted: new Map(blacklistRows.map((b) => [addressKey(b.type as AddressType, b.value), b.reason])),
    optedOut: new Set(optOutRows.map((o) => o.phone)),
    unsubscribed: new Set(unsubscribeRows.map((u) => `${u.contactId}:${u.subscriptionId}`)),
    tracking: { opens: orgRows[0]?.opens ?? false, clicks: orgRows[0]?.clicks ?? false },
    currentLedger: registeredRow(orgRows[0]?.ledgerKey ?? null, orgRows[0]?.ledger ?? null),
  };
}

type Query = { then: unknown };
type Rows<Q> = Q extends null ? [] : Awaited<NonNullable<Q>>;

/**
 * Runs the named queries that are not null as one D1 batch (one round trip) and answers each one's rows by its name;
 * a null query answers no rows without costing a statement.
 */
async function batchNamed<T extends Record<string, Query | null>>(db: Database, queries: T): Promise<{ [K in keyof T]: Rows<T[K]> }> {
  const names = Object.keys(queries).filter((name) => queries[name] !== null);
  const results = await db.batch(names.map((name) => queries[name]) as unknown as Parameters<Database['batch']>[0]);
  const out: Record<string, unknown> = Object.fromEntries(Object.keys(queries).map((name) => [name, []]));
  names.forEach((name, k) => {
    out[name] = results[k];
  });
  return out as { [K in keyof T]: Rows<T[K]> };
}
