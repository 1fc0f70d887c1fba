import { isLanguage } from '../../shared/languages';
import { addressKey, blacklistedAmong } from '../blacklist/lookup';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { contactAddresses, contactAttributes, type contacts, contactTags, fieldOptions, fields, tags } from '../../db/schema';
import type { Database } from '../../db/client';
import type { AddressType } from '../../shared/address';
import type { Contact, ContactAttribute } from '../../shared/contracts/contact';
import { sameOrg } from '../../db/same-org';

type Ctx = Context<AppEnv>;
type Row = typeof contacts.$inferSelect;

export interface AttributeRow {
  contactId: number;
  fieldId: number;
  type: string;
  valueText: string | null;
  valueNumber: number | null;
  optionId: number | null;
}

/** Attribute rows of one contact (already in field order) to API values, one per field. */
export function attributeValues(rows: AttributeRow[]): ContactAttribute[] {
  const out: ContactAttribute[] = [];
  for (const row of rows) {
    const last = out[out.length - 1];
    if (row.type === 'multiselect') {
      if (row.optionId === null) continue;
      if (last?.field_id === row.fieldId && Array.isArray(last.value)) last.value.push({ option_id: row.optionId });
      else out.push({ field_id: row.fieldId, value: [{ option_id: row.optionId }] });
    } else if (row.type === 'select') {
      if (row.optionId !== null) out.push({ field_id: row.fieldId, value: { option_id: row.optionId } });
    } else if (row.type === 'boolean') {
      if (row.valueNumber !== null) out.push({ field_id: row.fieldId, value: row.valueNumber !== 0 });
    } else if (row.type === 'number') {
      if (row.valueNumber !== null) out.push({ field_id: row.fieldId, value: row.valueNumber });
    } else if (row.valueText !== null) {
      out.push({ field_id: row.fieldId, value: row.valueText });
    }
  }
  return out;
}

function groupBy<T extends { contactId: number }>(rows: T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.contactId);
    if (list) list.push(row);
    else map.set(row.contactId, [row]);
  }
  return map;
}

/** The three relation queries for a page of contact ids; exported so a test can check their query plans. */
export function relationQueries(db: Database, orgId: number, contactIds: number[]) {
  const ids = JSON.stringify(contactIds);
  const inPage = (column: SQLiteColumn) => sql`${column} IN (SELECT value FROM json_each(${ids}))`;
  return [
    db
      .select({ contactId: contactAddresses.contactId, id: contactAddresses.id, type: contactAddresses.type, value: contactAddresses.value })
      .from(contactAddresses)
      .where(and(sameOrg(contactAddresses.orgId, orgId), inPage(contactAddresses.contactId)))
      .orderBy(asc(contactAddresses.contactId), asc(contactAddresses.position), asc(contactAddresses.id)),
    db
      .select({ contactId: contactTags.contactId, id: tags.id, name: tags.name })
      .from(contactTags)
      .innerJoin(tags, and(eq(tags.id, contactTags.tagId), sameOrg(tags.orgId, orgId)))
      .where(and(sameOrg(contactTags.orgId, orgId), inPage(contactTags.contactId)))
      .orderBy(asc(tags.priority), asc(tags.id)),
    db
      .select({
        contactId: contactAttributes.contactId,
        fieldId: contactAttributes.fieldId,
        type: fields.type,
        valueText: contactAttributes.valueText,
        valueNumber: contactAttributes.valueNumber,
        optionId: contactAttributes.optionId,
      })
      .from(contactAttributes)
      .innerJoin(fields, and(eq(fields.id, contactAttributes.fieldId), sameOrg(fields.orgId, orgId)))
      .leftJoin(fieldOptions, eq(fieldOptions.id, contactAttributes.optionId))
      .where(and(sameOrg(contactAttributes.orgId, orgId), inPage(contactAttributes.contactId)))
      .orderBy(asc(fields.priority), asc(fields.id), asc(fieldOptions.position), asc(contactAttributes.id)),
  ] as const;
}

/**
 * Contacts with their addresses (in order), tags and attributes, for a whole page at once: one D1 batch of three
 * queries whatever the page size (no query per contact).
 */
export async function presentContacts(c: Ctx, rows: Row[]): Promise<Contact[]> {
  if (rows.length === 0) return [];
  const [addressRows, tagRows, attributeRows] = await c.var.db.batch(
    relationQueries(
      c.var.db,
      c.var.org.id,
      rows.map((row) => row.id),
    ),
  );
  const addresses = groupBy(addressRows);
  const blocked = await blacklistedAmong(
    c.var.db,
    c.var.org.id,
    addressRows.map((a) => ({ type: a.type as AddressType, value: a.value })),
  );
  const tagsOf = groupBy(tagRows);
  const attributes = groupBy(attributeRows);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    note: row.note,
    language: isLanguage(row.language) ? row.language : null,
    addresses: (addresses.get(row.id) ?? []).map((a) => ({ id: a.id, type: a.type as AddressType, value: a.value })),
    tags: (tagsOf.get(row.id) ?? []).map((t) => ({ id: t.id, name: t.name })),
    attributes: attributeValues(attributes.get(row.id) ?? []),
    blacklisted_addresses: (addresses.get(row.id) ?? []).filter((a) => blocked.has(addressKey(a.type as AddressType, a.value))).map((a) => a.id),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}
