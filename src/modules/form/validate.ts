import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { fields as customFields, forms, senders, subscriptions, templates } from '../../db/schema';
import { ApiError, validationFailed } from '../../lib/api-error';
import { FORM_LIMITS, FORM_MESSAGES, type FormField, type FormInput } from '../../shared/contracts/form';
import { normaliseOrigin, originOfUrl } from './origins';

type Ctx = Context<AppEnv>;
type Row = typeof forms.$inferSelect;
type Errors = Record<string, string[]>;

const add = (errors: Errors, field: string, message: string) => (errors[field] ??= []).push(message);

/** The fields' own rules: email first and required, each kind (and custom alias) once, custom ones named. */
function checkFields(list: FormField[], errors: Errors) {
  if (list[0]?.kind !== 'email' || !list[0].required || list.slice(1).some((f) => f.kind === 'email')) add(errors, 'fields', FORM_MESSAGES.emailFirst);
  const seen = list.map((f) => (f.kind === 'custom' ? `custom:${f.alias ?? ''}` : f.kind));
  if (new Set(seen).size !== seen.length) add(errors, 'fields', FORM_MESSAGES.duplicateField);
  if (list.some((f) => f.kind === 'custom' && !f.alias)) add(errors, 'fields', FORM_MESSAGES.unknownField);
}

/** How many of these ids are rows of the organisation in the table (ids are distinct). */
async function ownedCount(c: Ctx, table: typeof subscriptions, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const [{ n }] = await c.var.db
    .select({ n: sql<number>`count(*)` })
    .from(table)
    .where(and(eq(table.orgId, c.var.org.id), inArray(table.id, ids)));
  return Number(n);
}

/**
 * Checks a create or update against the organisation's data and turns the origins into their stored form. Every
 * reference (subscriptions, custom fields, sender, template) must be the organisation's: another organisation's id
 * is refused like an unknown one. The redirect must be on one of the allowed origins (no open redirect).
 */
export async function validateForm(c: Ctx, input: Partial<FormInput>, existing?: Row): Promise<void> {
  const errors: Errors = {};
  if (input.fields) checkFields(input.fields, errors);
  if (input.subscription_ids) {
    const ids = [...new Set(input.subscription_ids)];
    if (ids.length !== input.subscription_ids.length || (await ownedCount(c, subscriptions, ids)) !== ids.length)
      add(errors, 'subscription_ids', FORM_MESSAGES.unknownSubscription);
  }
  const aliases = [...new Set((input.fields ?? []).flatMap((f) => (f.kind === 'custom' && f.alias ? [f.alias] : [])))];
  if (aliases.length) {
    const found = await c.var.db
      .select({ alias: customFields.alias })
      .from(customFields)
      .where(and(eq(customFields.orgId, c.var.org.id), inArray(customFields.alias, aliases)));
    if (found.length !== aliases.length) add(errors, 'fields', FORM_MESSAGES.unknownField);
  }
  if (input.sender_id) {
    const [sender] = await c.var.db
      .select({ type: senders.type })
      .from(senders)
      .where(and(eq(senders.orgId, c.var.org.id), eq(senders.id, input.sender_id)));
    if (sender?.type !== 'email') add(errors, 'sender_id', FORM_MESSAGES.senderEmail);
  }
  if (input.template_id) {
    const [template] = await c.var.db
      .select({ type: templates.type })
      .from(templates)
      .where(and(eq(templates.orgId, c.var.org.id), eq(templates.id, input.template_id)));
    // html and email templates go out by email; a text template is an SMS.
    if (!template || template.type === 'text') add(errors, 'template_id', FORM_MESSAGES.templateEmail);
  }
  if (input.allowed_origins) {
    const normalised = input.allowed_origins.map(normaliseOrigin);
    if (normalised.some((o) => o === null)) add(errors, 'allowed_origins', FORM_MESSAGES.origin);
    else input.allowed_origins = [...new Set(normalised as string[])];
  }
  const redirect = input.redirect_url === undefined ? existing?.redirectUrl : input.redirect_url;
  if (redirect && (input.redirect_url !== undefined || input.allowed_origins !== undefined) && !errors.allowed_origins) {
    const origins = input.allowed_origins ?? (JSON.parse(existing?.allowedOrigins ?? '[]') as string[]);
    const origin = originOfUrl(redirect);
    if (!origin || !origins.includes(origin)) add(errors, 'redirect_url', FORM_MESSAGES.redirectOrigin);
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** A new form past the organisation's limit is a 409 (like the webhook endpoints' limit): nothing in the body is wrong. */
export async function requireRoomForForm(c: Ctx): Promise<void> {
  const [{ n }] = await c.var.db.select({ n: sql<number>`count(*)` }).from(forms).where(eq(forms.orgId, c.var.org.id));
  if (Number(n) >= FORM_LIMITS.perOrganisation) throw new ApiError(409, 'limit', FORM_MESSAGES.tooMany);
}
