import { or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { contactAddresses, contactAttributes, contacts, contactTags } from '../../db/schema';
import type { AttributeFilter } from '../../shared/contracts/contact';
import { searchCondition } from '../crud/list-filter';
import { canUseSearchIndex, contactIdsWithAddress, contactIdsWithText } from './search-index';

// Conditions on `contacts` for the list, bulk delete and (later) a broadcast's recipients. Each sub-select is
// scoped to the organisation and served by an index that leads with org_id.

const json = (values: unknown[]) => JSON.stringify(values);

/**
 * Search through name, note and address values, as a substring, case-insensitively. Text of three or more
 * characters goes through the trigram indexes; shorter text falls back to LIKE (wildcards taken literally).
 */
export function contactSearch(text: string, orgId: number): SQL | undefined {
  if (canUseSearchIndex(text)) {
    return sql`${contacts.id} IN (${contactIdsWithText(text, orgId)} UNION ${contactIdsWithAddress(text, orgId)})`;
  }
  const own = searchCondition([contacts.name, contacts.note], text);
  const address = searchCondition([contactAddresses.value], text);
  if (!own || !address) return undefined;
  return or(
    own,
    sql`${contacts.id} IN (SELECT ${contactAddresses.contactId} FROM ${contactAddresses} WHERE ${contactAddresses.orgId} = ${orgId} AND ${address})`,
  );
}

/**
 * How a tag filter finds its contacts: `list` reads the tags' members into a list first (cheap when they are few, and
 * what a list page sorted by any column needs); `each` looks each contact up in its own tags (the primary key), for a
 * walk in contact id order over many members, where reading every member again for each page would cost members x
 * pages (broadcast/recipients.ts chooses).
 */
export type TagLookup = 'list' | 'each';

/** Contacts having any of these tags. */
export function withAnyTag(tagIds: number[], orgId: number, lookup: TagLookup = 'list'): SQL {
  const anyOf = sql`${contactTags.tagId} IN (SELECT value FROM json_each(${json(tagIds)}))`;
  if (lookup === 'each') {
    return sql`EXISTS (SELECT 1 FROM ${contactTags} WHERE ${contactTags.contactId} = ${contacts.id} AND ${anyOf} AND +${contactTags.orgId} = ${orgId})`;
  }
  return sql`${contacts.id} IN (SELECT ${contactTags.contactId} FROM ${contactTags} WHERE ${contactTags.orgId} = ${orgId} AND ${anyOf})`;
}

/** Contacts with an address containing the text (through the trigram index from three characters on). */
export function withAddressLike(text: string, orgId: number): SQL | undefined {
  if (canUseSearchIndex(text)) return sql`${contacts.id} IN (${contactIdsWithAddress(text, orgId)})`;
  const like = searchCondition([contactAddresses.value], text);
  if (!like) return undefined;
  return sql`${contacts.id} IN (SELECT ${contactAddresses.contactId} FROM ${contactAddresses} WHERE ${contactAddresses.orgId} = ${orgId} AND ${like})`;
}

const NUMBER = /^-?\d+(\.\d+)?$/;
const OPTION_ID = /^[1-9]\d{0,15}$/;

/**
 * Contacts matching attribute filters: any of the values given for one field, and every field given.
 * Only one value column is ever set per field type (text in value_text, number and boolean in value_number,
 * options in option_id), so each value text is compared with the columns its spelling can mean; that keeps the
 * filter one SQL condition without first loading the field types. Each column is its own UNION ALL branch so
 * that SQLite seeks the matching index on (org_id, field_id, value) or (org_id, option_id) instead of reading
 * every value of the field.
 */
export function withAttributes(filters: AttributeFilter[], orgId: number): SQL[] {
  const byField = new Map<number, string[]>();
  for (const f of filters) byField.set(f.field_id, [...(byField.get(f.field_id) ?? []), f.value]);
  return [...byField].map(([fieldId, values]) => {
    const numbers = values.flatMap((v) => (NUMBER.test(v) ? [Number(v)] : v === 'true' ? [1] : v === 'false' ? [0] : []));
    const optionIds = values.filter((v) => OPTION_ID.test(v)).map(Number);
    const branch = (column: SQLiteColumn, list: unknown[]) =>
      sql`SELECT ${contactAttributes.contactId} FROM ${contactAttributes} WHERE ${contactAttributes.orgId} = ${orgId} AND ${contactAttributes.fieldId} = ${fieldId} AND ${column} IN (SELECT value FROM json_each(${json(list)}))`;
    const branches = [branch(contactAttributes.valueText, values)];
    if (numbers.length) branches.push(branch(contactAttributes.valueNumber, numbers));
    if (optionIds.length) branches.push(branch(contactAttributes.optionId, optionIds));
    return sql`${contacts.id} IN (${sql.join(branches, sql` UNION ALL `)})`;
  });
}

/** All list filters of a contact list (see contactFilterShape in the contract for the query encoding). */
export function contactFilterConditions(
  filter: { tags?: number[]; address?: string; attributes?: AttributeFilter[] },
  orgId: number,
  tagLookup: TagLookup = 'list',
): (SQL | undefined)[] {
  return [
    filter.tags?.length ? withAnyTag(filter.tags, orgId, tagLookup) : undefined,
    filter.address ? withAddressLike(filter.address, orgId) : undefined,
    ...(filter.attributes?.length ? withAttributes(filter.attributes, orgId) : []),
  ];
}
