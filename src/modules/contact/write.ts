import type { ContactMembership } from '../../shared/contracts/membership';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { contactAddresses, contactAttributes, contacts, contactTags } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { CONTACT_MESSAGES, type ContactInput } from '../../shared/contracts/contact';
import { MESSAGES } from '../../shared/messages';
import { rawBatch, type BatchStatement } from '../crud/raw-batch';
import { addDaily } from '../stats/daily';
import { sameOrg } from '../../db/same-org';
import { checkContactInput, type AttributeRow, type ContactPlan, type ErasedAddresses } from './references';

type Ctx = Context<AppEnv>;
type Address = NonNullable<ContactPlan['addresses']>[number];

const json = (values: unknown[]) => JSON.stringify(values);

/**
 * The id of the contact inserted earlier in the same batch. A D1 batch is one transaction on a single-writer
 * database, and contacts.id is AUTOINCREMENT (always above every id ever used), so inside the batch the new
 * contact is the row with the highest id. (last_insert_rowid() would not do: the first child insert changes it.)
 * The org_id check makes any surprise loud: the subquery would be NULL and the NOT NULL
 * contact_id would fail the whole batch.
 */
const newContactId = (orgId: number) => sql`(SELECT id FROM ${contacts} WHERE id = (SELECT MAX(id) FROM ${contacts}) AND org_id = ${orgId})`;

/** Child rows are inserted from one JSON parameter each, so no list ever meets D1's 100-parameter cap. */
function insertAddresses(c: Ctx, contactId: SQL | number, addresses: (Address & { position: number })[]) {
  const rows = json(addresses.map((a) => ({ t: a.type, v: a.value, p: a.position })));
  return c.var.db.run(sql`
    INSERT INTO ${contactAddresses} (org_id, contact_id, type, value, position)
    SELECT ${c.var.org.id}, ${contactId}, json_extract(j.value, '$.t'), json_extract(j.value, '$.v'), json_extract(j.value, '$.p')
    FROM json_each(${rows}) j`);
}

function insertTags(c: Ctx, contactId: SQL | number, tagIds: number[]) {
  return c.var.db.run(sql`
    INSERT INTO ${contactTags} (org_id, contact_id, tag_id)
    SELECT ${c.var.org.id}, ${contactId}, j.value FROM json_each(${json(tagIds)}) j`);
}

function insertAttributes(c: Ctx, contactId: SQL | number, rows: AttributeRow[]) {
  return c.var.db.run(sql`
    INSERT INTO ${contactAttributes} (org_id, contact_id, field_id, value_text, value_number, option_id)
    SELECT ${c.var.org.id}, ${contactId}, json_extract(j.value, '$.field_id'), json_extract(j.value, '$.value_text'),
           json_extract(j.value, '$.value_number'), json_extract(j.value, '$.option_id')
    FROM json_each(${json(rows)}) j`);
}

/** Runs the batch; a reference that changed since the check (an address taken meanwhile, ...) becomes a 422. */
async function runBatch(c: Ctx, statements: BatchStatement[]) {
  try {
    return await rawBatch(c.var.db, statements);
  } catch (error) {
    let text = '';
    for (let e: unknown = error; e instanceof Error; e = e.cause) text += ` ${e.message}`;
    if (/UNIQUE constraint failed: contact_addresses/.test(text)) throw validationFailed({ addresses: [MESSAGES.duplicate] });
    // A tag, field or option deleted between the check and the write.
    if (/FOREIGN KEY constraint failed/.test(text)) throw validationFailed({ _: [CONTACT_MESSAGES.referenceGone] });
    throw error;
  }
}

/**
 * Creates a contact with its addresses, tags and attributes in one D1 batch: all of it or nothing. An address erased
 * at the person's request is refused unless `erased` is 'allow' (their own form sign-up).
 */
export async function createContact(
  c: Ctx,
  input: ContactInput,
  membership: ContactMembership = 'implied',
  erased: ErasedAddresses = 'refuse',
): Promise<number> {
  const plan = await checkContactInput(c, input, undefined, erased);
  const orgId = c.var.org.id;
  const contactId = newContactId(orgId);
  const statements: BatchStatement[] = [
    // An 'explicit' contact (a form's sign-up) is so from its first write: never, for a moment, one the organisation added.
    new TenantScope(c.var.db, contacts, orgId).insert({ name: input.name, note: input.note ?? null, language: input.language ?? null, membership }),
    insertAddresses(
      c,
      contactId,
      (plan.addresses ?? []).map((a, position) => ({ ...a, position })),
    ),
  ];
  if (plan.tagIds?.length) statements.push(insertTags(c, contactId, plan.tagIds));
  if (plan.attributes?.length) statements.push(insertAttributes(c, contactId, plan.attributes));
  statements.push(addDaily(c.var.db, orgId, { contacts_created: 1 })!);
  const [inserted] = await runBatch(c, statements);
  return inserted.results[0].id as number;
}

/** The statements that make a contact's addresses equal to `addresses`, in that order, keeping the ids sent. */
function replaceAddresses(c: Ctx, contactId: number, addresses: Address[]) {
  const db = c.var.db;
  const positioned = addresses.map((a, position) => ({ ...a, position }));
  const kept = positioned.filter((a) => a.id !== undefined);
  const added = positioned.filter((a) => a.id === undefined);
  const keptIds = json(kept.map((a) => a.id));
  const keptRows = json(kept.map((a) => ({ id: a.id, v: a.value, p: a.position })));
  const ofContact = (condition: SQL) => and(sameOrg(contactAddresses.orgId, c.var.org.id), eq(contactAddresses.contactId, contactId), condition);
  const inKept = sql`${contactAddresses.id} IN (SELECT value FROM json_each(${keptIds}))`;
  const fromKept = (key: string) =>
    sql`(SELECT json_extract(j.value, ${`$.${key}`}) FROM json_each(${keptRows}) j WHERE json_extract(j.value, '$.id') = ${contactAddresses.id})`;
  return [
    db.delete(contactAddresses).where(ofContact(sql`${contactAddresses.id} NOT IN (SELECT value FROM json_each(${keptIds}))`)),
    // Through a placeholder first, so two addresses trading values never trip the (org_id, type, value) unique index.
    db
      .update(contactAddresses)
      .set({ value: sql`char(0) || ${contactAddresses.id}` })
      .where(ofContact(inKept)),
    db
      .update(contactAddresses)
      .set({ value: fromKept('v'), position: fromKept('p') })
      .where(ofContact(inKept)),
    ...(added.length ? [insertAddresses(c, contactId, added)] : []),
  ];
}

/**
 * Updates a contact and its child rows in one D1 batch. PUT replaces everything (a missing note, tags or
 * attributes means none); PATCH leaves out what it does not send.
 */
export async function updateContact(c: Ctx, id: number, input: Partial<ContactInput>): Promise<void> {
  const replace = c.req.method === 'PUT';
  const full = {
    ...input,
    tags: input.tags ?? (replace ? [] : undefined),
    attributes: input.attributes ?? (replace ? [] : undefined),
  };
  const plan = await checkContactInput(c, full, id);
  const db = c.var.db;
  const orgId = c.var.org.id;
  const statements: BatchStatement[] = [
    db
      .update(contacts)
      .set({
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.note === undefined ? {} : { note: input.note }),
        ...(input.language === undefined ? {} : { language: input.language }),
        updatedAt: new Date().toISOString(),
      })
      .where(new TenantScope(db, contacts, orgId).where(eq(contacts.id, id))),
  ];
  if (plan.addresses) statements.push(...replaceAddresses(c, id, plan.addresses));
  if (plan.tagIds) {
    statements.push(db.delete(contactTags).where(and(sameOrg(contactTags.orgId, orgId), eq(contactTags.contactId, id))));
    if (plan.tagIds.length) statements.push(insertTags(c, id, plan.tagIds));
  }
  if (plan.attributes) {
    statements.push(db.delete(contactAttributes).where(and(sameOrg(contactAttributes.orgId, orgId), eq(contactAttributes.contactId, id))));
    if (plan.attributes.length) statements.push(insertAttributes(c, id, plan.attributes));
  }
  await runBatch(c, statements);
}
