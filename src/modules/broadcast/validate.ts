import { and, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { contacts, senders, subscriptions, tags, templates } from '../../db/schema';
import { sameOrg } from '../../db/same-org';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { BROADCAST_MESSAGES, BROADCAST_TEMPLATE_TYPES, type BroadcastInput } from '../../shared/contracts/broadcast';
import { CONTACT_MESSAGES } from '../../shared/contracts/contact';
import { TEMPLATE_MESSAGES, type TemplateType } from '../../shared/contracts/template';
import { countRecipients } from './preview';

type Ctx = Context<AppEnv>;

/**
 * The checks of a new broadcast that need the database: the sender, template, subscription, contacts and tags
 * it names belong to the organisation (another's are "not found"), the sender and template fit the type, and
 * the filter selects someone. Throws a 422 with every problem at once.
 */
export async function validateBroadcast(c: Ctx, input: BroadcastInput): Promise<void> {
  const orgId = c.var.org.id;
  const db = c.var.db;
  const { filter } = input.contacts;
  const [sender, template, subscription, contactIds, tagIds] = await Promise.all([
    new TenantScope(db, senders, orgId).findById(input.sender_id),
    new TenantScope(db, templates, orgId).findById(input.template_id),
    input.subscription_id ? new TenantScope(db, subscriptions, orgId).findById(input.subscription_id) : undefined,
    filter.ids?.length ? idsOf(c, contacts, filter.ids) : new Set<number>(),
    filter.tags?.length ? idsOf(c, tags, filter.tags) : new Set<number>(),
  ]);
  const errors: Record<string, string[]> = {};
  if (!sender) errors.sender_id = [TEMPLATE_MESSAGES.senderNotFound];
  else if (sender.type !== input.type) errors.sender_id = [BROADCAST_MESSAGES.senderType(input.type)];
  if (!template) errors.template_id = [TEMPLATE_MESSAGES.templateNotFound];
  else if (!BROADCAST_TEMPLATE_TYPES[input.type].includes(template.type as TemplateType)) errors.template_id = [BROADCAST_MESSAGES.templateType(input.type)];
  else if (input.type === 'email' && !template.subject?.trim()) errors.template_id = [TEMPLATE_MESSAGES.noSubject];
  if (input.subscription_id && !subscription) errors.subscription_id = [BROADCAST_MESSAGES.subscriptionNotFound];
  if (filter.ids?.some((id) => !contactIds.has(id))) errors['contacts.filter.ids'] = [BROADCAST_MESSAGES.contactNotFound];
  if (filter.tags?.some((id) => !tagIds.has(id))) errors['contacts.filter.tags'] = [CONTACT_MESSAGES.unknownTag];
  if (Object.keys(errors).length === 0) {
    const total = await countRecipients(db, { orgId, type: input.type, recipients: input.contacts, subscriptionId: null, skipUnsubscribed: false });
    if (total === 0) errors.contacts = [BROADCAST_MESSAGES.noRecipients];
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** Which of the ids are rows of the organisation in the table. */
async function idsOf(c: Ctx, table: typeof contacts | typeof tags, ids: number[]): Promise<Set<number>> {
  // By the primary key, the organisation checked on each row, not by walking an org_id index.
  const rows = await c.var.db
    .select({ id: table.id })
    .from(table)
    .where(and(sameOrg(table.orgId, c.var.org.id), sql`${table.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`));
  return new Set(rows.map((r) => r.id));
}
