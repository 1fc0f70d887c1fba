import { and, eq, ne, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { contactAddresses, fieldOptions, fields, tags } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import type { AddressType } from '../../shared/address';
import { CONTACT_MESSAGES, type AttributeValue, type ContactInput } from '../../shared/contracts/contact';
import { MESSAGES } from '../../shared/messages';
import { PRIVACY_MESSAGES } from '../../shared/contracts/privacy';
import { sameOrg } from '../../db/same-org';
import { recipientKey } from '../privacy/address-digest';
import { erasedSetOf, listedDigestsQuery, lookupDigests } from '../privacy/erased-list';

type Ctx = Context<AppEnv>;

/** One contact_attributes row to write (multiselect gives one per chosen option). */
export interface AttributeRow {
  field_id: number;
  value_text: string | null;
  value_number: number | null;
  option_id: number | null;
}

/** What a contact write stores, after every reference has been checked against the organisation. */
export interface ContactPlan {
  addresses?: { id?: number; type: AddressType; value: string }[];
  tagIds?: number[];
  attributes?: AttributeRow[];
}

const json = (values: unknown[]) => JSON.stringify(values);

/**
 * Whether a write may add an address on the organisation's "do not re-add" list (src/modules/privacy/erased-list.ts):
 * only the person's own form sign-up ('allow'); the console, the API and a category send refuse.
 */
export type ErasedAddresses = 'refuse' | 'allow';

/**
 * Checks what a contact write refers to, in one D1 batch: addresses free in the organisation and not erased at the
 * person's request (and, on update, existing address ids of this contact keeping their type), tags, fields and
 * options of the organisation, and attribute values of the field's type. Throws one 422 naming every bad item
 * (`addresses.1.value`, `tags.0`, ...); returns the rows to write.
 */
export async function checkContactInput(c: Ctx, input: Partial<ContactInput>, contactId?: number, erased: ErasedAddresses = 'refuse'): Promise<ContactPlan> {
  const db = c.var.db;
  const orgId = c.var.org.id;
  const addresses = input.addresses ?? [];
  const tagIds = input.tags ?? [];
  const attributes = input.attributes ?? [];
  const optionIds = attributes.flatMap((a) => optionRefs(a.value));
  const addressScope = new TenantScope(db, contactAddresses, orgId);
  const erasedDigests = await lookupDigests(c.env, orgId, erased === 'refuse' ? addresses : []);

  const [taken, own, foundTags, foundFields, foundOptions, listed] = await db.batch([
    // Addresses of other contacts with the same type and value (served by the unique index org_id, type, value).
    db
      .select({ type: contactAddresses.type, value: contactAddresses.value })
      .from(contactAddresses)
      .where(
        addressScope.where(
          sql`(${contactAddresses.type}, ${contactAddresses.value}) IN (SELECT json_extract(value, '$.t'), json_extract(value, '$.v') FROM json_each(${json(addresses.map((a) => ({ t: a.type, v: a.value })))}))`,
          contactId === undefined ? undefined : ne(contactAddresses.contactId, contactId),
        ),
      ),
    db
      .select({ id: contactAddresses.id, type: contactAddresses.type, value: contactAddresses.value })
      .from(contactAddresses)
      .where(and(sameOrg(contactAddresses.orgId, orgId), eq(contactAddresses.contactId, contactId ?? 0))),
    db
      .select({ id: tags.id })
      .from(tags)
      .where(and(sameOrg(tags.orgId, orgId), sql`${tags.id} IN (SELECT value FROM json_each(${json(tagIds)}))`)),
    db
      .select({ id: fields.id, type: fields.type })
      .from(fields)
      .where(and(sameOrg(fields.orgId, orgId), sql`${fields.id} IN (SELECT value FROM json_each(${json(attributes.map((a) => a.field_id))}))`)),
    db
      .select({ id: fieldOptions.id, fieldId: fieldOptions.fieldId })
      .from(fieldOptions)
      .where(and(sameOrg(fieldOptions.orgId, orgId), sql`${fieldOptions.id} IN (SELECT value FROM json_each(${json(optionIds)}))`)),
    listedDigestsQuery(db, orgId, [...erasedDigests.keys()]),
  ]);

  const errors: Record<string, string[]> = {};
  const fail = (path: string, message: string) => (errors[path] ??= []).push(message);

  const takenKeys = new Set(taken.map((a) => `${a.type}:${a.value}`));
  const ownTypes = new Map(own.map((a) => [a.id, a.type]));
  // An address the contact holds already is no re-adding (a pending double opt-in sign-up's, edited meanwhile).
  const ownValues = new Set(own.map((a) => recipientKey(a.value)));
  const erasedSet = erasedSetOf(erasedDigests, listed);
  const plannedAddresses = addresses.map((address, i) => {
    if (takenKeys.has(`${address.type}:${address.value}`)) fail(`addresses.${i}.value`, MESSAGES.duplicate);
    else if (erasedSet.has(address.value) && !ownValues.has(recipientKey(address.value))) fail(`addresses.${i}.value`, PRIVACY_MESSAGES.erasedAddress);
    // On create an id means nothing; on update it must be one of this contact's addresses, of the same type.
    if (contactId === undefined || address.id === undefined) return { type: address.type, value: address.value };
    const type = ownTypes.get(address.id);
    if (type === undefined) fail(`addresses.${i}.id`, CONTACT_MESSAGES.unknownAddress);
    else if (type !== address.type) fail(`addresses.${i}.type`, CONTACT_MESSAGES.addressTypeLocked);
    return { id: address.id, type: address.type, value: address.value };
  });

  const tagSet = new Set(foundTags.map((t) => t.id));
  tagIds.forEach((id, i) => {
    if (!tagSet.has(id)) fail(`tags.${i}`, CONTACT_MESSAGES.unknownTag);
  });

  const fieldTypes = new Map(foundFields.map((f) => [f.id, f.type]));
  const optionField = new Map(foundOptions.map((o) => [o.id, o.fieldId]));
  const rows: AttributeRow[] = [];
  attributes.forEach((attribute, i) => {
    const type = fieldTypes.get(attribute.field_id);
    if (type === undefined) {
      fail(`attributes.${i}.field_id`, CONTACT_MESSAGES.unknownField);
      return;
    }
    const result = attributeRows(type, attribute.field_id, attribute.value, optionField);
    if (typeof result === 'string') fail(`attributes.${i}.value`, result);
    else rows.push(...result);
  });

  if (Object.keys(errors).length) throw validationFailed(errors);
  return {
    addresses: input.addresses === undefined ? undefined : plannedAddresses,
    tagIds: input.tags === undefined ? undefined : [...new Set(tagIds)],
    attributes: input.attributes === undefined ? undefined : rows,
  };
}

function optionRefs(value: AttributeValue): number[] {
  if (Array.isArray(value)) return value.map((o) => o.option_id);
  if (value !== null && typeof value === 'object') return [value.option_id];
  return [];
}

/** The rows that store one attribute value, or the message saying why the value does not fit the field type. */
function attributeRows(type: string, fieldId: number, value: AttributeValue, optionField: Map<number, number>): AttributeRow[] | string {
  const row = (values: Partial<AttributeRow>): AttributeRow => ({ field_id: fieldId, value_text: null, value_number: null, option_id: null, ...values });
  if (value === null) return [];
  switch (type) {
    case 'number':
      return typeof value === 'number' ? [row({ value_number: value })] : CONTACT_MESSAGES.expectNumber;
    case 'boolean':
      return typeof value === 'boolean' ? [row({ value_number: value ? 1 : 0 })] : CONTACT_MESSAGES.expectBoolean;
    case 'text':
      if (typeof value !== 'string') return CONTACT_MESSAGES.expectText;
      return value === '' ? [] : [row({ value_text: value })];
    case 'select':
      if (typeof value !== 'object' || Array.isArray(value)) return CONTACT_MESSAGES.expectOption;
      return optionField.get(value.option_id) === fieldId ? [row({ option_id: value.option_id })] : CONTACT_MESSAGES.unknownOption;
    case 'multiselect': {
      if (!Array.isArray(value)) return CONTACT_MESSAGES.expectOptions;
      const ids = [...new Set(value.map((o) => o.option_id))];
      if (ids.some((id) => optionField.get(id) !== fieldId)) return CONTACT_MESSAGES.unknownOption;
      return ids.map((id) => row({ option_id: id }));
    }
    default:
      return CONTACT_MESSAGES.attributeValue;
  }
}
