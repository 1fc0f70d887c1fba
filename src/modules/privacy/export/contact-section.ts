import { and, eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../../context';
import { fieldOptions, fields, type contacts } from '../../../db/schema';
import type { ContactAttribute } from '../../../shared/contracts/contact';
import { presentContacts } from '../../contact/present';
import { contactMembershipsOf } from '../../membership/read';

type ContactRow = typeof contacts.$inferSelect;

/** A field value as the person reads it: the field's name and the option's text instead of ids. */
interface ReadableValue {
  field: string;
  value: string | number | boolean | string[];
}

/** The names of the fields and options the contact's values point to (two small reads of the organisation's rows). */
async function readableValues(c: Context<AppEnv>, attributes: ContactAttribute[]): Promise<ReadableValue[]> {
  if (attributes.length === 0) return [];
  const orgId = c.var.org.id;
  const ids = JSON.stringify(attributes.map((a) => a.field_id));
  const [fieldRows, optionRows] = await Promise.all([
    c.var.db
      .select({ id: fields.id, name: fields.name })
      .from(fields)
      .where(and(eq(fields.orgId, orgId), sql`${fields.id} IN (SELECT value FROM json_each(${ids}))`)),
    c.var.db
      .select({ id: fieldOptions.id, value: fieldOptions.value })
      .from(fieldOptions)
      .where(and(eq(fieldOptions.orgId, orgId), sql`${fieldOptions.fieldId} IN (SELECT value FROM json_each(${ids}))`)),
  ]);
  const names = new Map(fieldRows.map((f) => [f.id, f.name]));
  const options = new Map(optionRows.map((o) => [o.id, o.value]));
  const option = (v: { option_id: number }) => options.get(v.option_id) ?? String(v.option_id);
  return attributes.map((a) => ({
    field: names.get(a.field_id) ?? String(a.field_id),
    value: Array.isArray(a.value) ? a.value.map(option) : typeof a.value === 'object' && a.value !== null ? option(a.value) : a.value,
  }));
}

/**
 * The contact as GET /contact/{id} presents it (addresses, tags, field values, language, times) with its membership
 * kind and its field values by name; and its standing in each subscription (contactMembershipsOf), with the source
 * and time of each.
 */
export async function contactSections(c: Context<AppEnv>, contact: ContactRow) {
  const [[presented], standing] = await Promise.all([
    presentContacts(c, [contact]),
    contactMembershipsOf(c.var.db, { id: contact.id, orgId: c.var.org.id, membership: contact.membership }),
  ]);
  return {
    contact: { ...presented, membership: contact.membership, field_values: await readableValues(c, presented.attributes) },
    subscriptions: standing.memberships.map((m) => ({
      subscription_id: m.subscription_id,
      subscription: m.subscription_name,
      status: m.status,
      source: m.source,
      consent_id: m.consent_id,
      updated_at: m.updated_at,
    })),
  };
}
