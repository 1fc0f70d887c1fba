import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contactAddresses, contactAttributes, contacts, fieldOptions, fields } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

// The variables a template sees (documented for users in src/shared/contracts/template.ts): the contact with
// its addresses and custom fields by alias, the organisation, and the unsubscribe link.

export interface ContactPlaceholders {
  id: number;
  name: string;
  note: string | null;
  /** First email / phone address by position. */
  email: string | null;
  phone: string | null;
  addresses: { type: string; value: string }[];
  /** By field alias: number, text, boolean, select -> option value, multiselect -> list of option values. */
  fields: Record<string, number | string | boolean | string[] | null>;
}

export interface PlaceholderScope {
  contact: ContactPlaceholders | Record<string, never>;
  organization: { name: string; domain: string };
  unsubscribe_url: string;
}

/** Loads one contact of the organisation with its addresses and typed field values, or null when it is not theirs. */
export async function loadContactPlaceholders(db: Database, orgId: number, contactId: number): Promise<ContactPlaceholders | null> {
  return (await loadContactPlaceholdersMany(db, orgId, [contactId])).get(contactId) ?? null;
}

/**
 * Loads many contacts of the organisation at once (one D1 round trip, whatever their number): the sending
 * engine renders a whole batch of recipients with this. Contacts that are not theirs are absent from the map.
 */
export async function loadContactPlaceholdersMany(db: Database, orgId: number, contactIds: readonly number[]): Promise<Map<number, ContactPlaceholders>> {
  const out = new Map<number, ContactPlaceholders>();
  if (contactIds.length === 0) return out;
  const fieldScope = new TenantScope(db, fields, orgId);
  const ids = JSON.stringify([...new Set(contactIds)]);
  // Found by the ids (primary key / contact_id indexes); the organisation is checked on each row found. The
  // unary + keeps SQLite from walking an org_id index over every contact of the organisation instead.
  const mine = (orgColumn: SQLiteColumn, idColumn: SQLiteColumn) => sql`+${orgColumn} = ${orgId} AND ${idColumn} IN (SELECT value FROM json_each(${ids}))`;
  const [found, addresses, attributes, fieldRows] = await db.batch([
    db.select({ id: contacts.id, name: contacts.name, note: contacts.note }).from(contacts).where(mine(contacts.orgId, contacts.id)),
    db
      .select({ contactId: contactAddresses.contactId, type: contactAddresses.type, value: contactAddresses.value })
      .from(contactAddresses)
      .where(mine(contactAddresses.orgId, contactAddresses.contactId))
      .orderBy(asc(contactAddresses.position), asc(contactAddresses.id)),
    db
      .select({
        contactId: contactAttributes.contactId,
        fieldId: contactAttributes.fieldId,
        valueText: contactAttributes.valueText,
        valueNumber: contactAttributes.valueNumber,
        option: fieldOptions.value,
      })
      .from(contactAttributes)
      .leftJoin(fieldOptions, and(eq(fieldOptions.id, contactAttributes.optionId), eq(fieldOptions.orgId, contactAttributes.orgId)))
      .where(mine(contactAttributes.orgId, contactAttributes.contactId))
      .orderBy(asc(fieldOptions.position), asc(contactAttributes.id)),
    db.select({ id: fields.id, alias: fields.alias, type: fields.type }).from(fields).where(fieldScope.where()),
  ]);
  const byField = new Map(fieldRows.map((f) => [f.id, f]));
  for (const contact of found) {
    const values: ContactPlaceholders['fields'] = {};
    // A multiselect with nothing chosen is an empty list, so `| join` and `for` work on every contact.
    for (const field of fieldRows) if (field.type === 'multiselect') values[field.alias] = [];
    out.set(contact.id, { id: contact.id, name: contact.name, note: contact.note, email: null, phone: null, addresses: [], fields: values });
  }
  for (const address of addresses) {
    const contact = out.get(address.contactId);
    if (!contact) continue;
    contact.addresses.push({ type: address.type, value: address.value });
    if (address.type === 'email' && contact.email === null) contact.email = address.value;
    if (address.type === 'phone' && contact.phone === null) contact.phone = address.value;
  }
  for (const attribute of attributes) {
    const field = byField.get(attribute.fieldId);
    const contact = out.get(attribute.contactId);
    if (field && contact) setFieldValue(contact.fields, field, attribute);
  }
  return out;
}

/** Puts one stored attribute into the contact's `fields` by alias, typed by the field. */
function setFieldValue(
  values: ContactPlaceholders['fields'],
  field: { alias: string; type: string },
  attribute: { valueText: string | null; valueNumber: number | null; option: string | null },
): void {
  switch (field.type) {
    case 'number':
      values[field.alias] = attribute.valueNumber;
      break;
    case 'boolean':
      values[field.alias] = attribute.valueNumber === null ? null : attribute.valueNumber !== 0;
      break;
    case 'select':
      values[field.alias] = attribute.option;
      break;
    case 'multiselect': {
      const list = Array.isArray(values[field.alias]) ? (values[field.alias] as string[]) : [];
      if (attribute.option !== null) list.push(attribute.option);
      values[field.alias] = list;
      break;
    }
    default:
      values[field.alias] = attribute.valueText;
  }
}
