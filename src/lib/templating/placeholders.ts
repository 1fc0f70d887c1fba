import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contactAddresses, contactAttributes, contacts, fieldOptions, fields } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';

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
  const contactScope = new TenantScope(db, contacts, orgId);
  const addressScope = new TenantScope(db, contactAddresses, orgId);
  const attributeScope = new TenantScope(db, contactAttributes, orgId);
  const fieldScope = new TenantScope(db, fields, orgId);
  const [found, addresses, attributes, fieldRows] = await db.batch([
    contactScope.selectWhere(eq(contacts.id, contactId)).limit(1),
    db
      .select({ type: contactAddresses.type, value: contactAddresses.value })
      .from(contactAddresses)
      .where(addressScope.where(eq(contactAddresses.contactId, contactId)))
      .orderBy(asc(contactAddresses.position), asc(contactAddresses.id)),
    db
      .select({
        fieldId: contactAttributes.fieldId,
        valueText: contactAttributes.valueText,
        valueNumber: contactAttributes.valueNumber,
        option: fieldOptions.value,
      })
      .from(contactAttributes)
      .leftJoin(fieldOptions, and(eq(fieldOptions.id, contactAttributes.optionId), eq(fieldOptions.orgId, contactAttributes.orgId)))
      .where(attributeScope.where(eq(contactAttributes.contactId, contactId)))
      .orderBy(asc(fieldOptions.position), asc(contactAttributes.id)),
    db.select({ id: fields.id, alias: fields.alias, type: fields.type }).from(fields).where(fieldScope.where()),
  ]);
  const contact = found[0];
  if (!contact) return null;

  const byId = new Map(fieldRows.map((f) => [f.id, f]));
  const values: ContactPlaceholders['fields'] = {};
  for (const attribute of attributes) {
    const field = byId.get(attribute.fieldId);
    if (!field) continue;
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
  // A multiselect with nothing chosen is an empty list, so `| join` and `for` work on every contact.
  for (const field of fieldRows) if (field.type === 'multiselect' && !(field.alias in values)) values[field.alias] = [];

  return {
    id: contact.id,
    name: contact.name,
    note: contact.note,
    email: addresses.find((a) => a.type === 'email')?.value ?? null,
    phone: addresses.find((a) => a.type === 'phone')?.value ?? null,
    addresses,
    fields: values,
  };
}
