import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { contacts } from './audience';
import { organizations, timestamps } from './core';

// Hosted sign-up forms and the consent they collect (issue 39, src/modules/form). A form is the organisation's; a
// visitor's sign-up is a `consents` row (what they signed up for, when, and the proof of the confirming request)
// whose memberships are `subscription_members` rows pointing back to it.
const orgId = () =>
  integer('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

export const forms = sqliteTable(
  'forms',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    /** The form's public name in its URL (/f/<key>): random, so a form cannot be found by counting. */
    publicKey: text('public_key').notNull(),
    name: text('name').notNull(),
    /** JSON array of subscription ids the form offers (checkboxes when several). */
    subscriptionIds: text('subscription_ids').notNull(),
    /** JSON array of FormField (src/shared/contracts/form.ts): email always first and required. */
    fields: text('fields').notNull(),
    doubleOptIn: integer('double_opt_in', { mode: 'boolean' }).notNull().default(true),
    /** The text shown after a sign-up; null: the default of the visitor's language. */
    successMessage: text('success_message'),
    /** Where a sign-up is sent after success instead of the message; must be on the allowed origins. */
    redirectUrl: text('redirect_url'),
    /** JSON array of origins (scheme://host[:port]) allowed to embed the form and to be redirected to. */
    allowedOrigins: text('allowed_origins').notNull().default('[]'),
    /** The confirmation mail's sender (an email sender of the organisation) and template (null: the default per language). */
    senderId: integer('sender_id'),
    templateId: integer('template_id'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueIndex('forms_public_key').on(t.publicKey), uniqueIndex('forms_org_name').on(t.orgId, t.name)],
);

/**
 * One sign-up through a form: the subscriptions asked for, when, and for double opt-in the confirmation (a hash of
 * the link's token, when it was confirmed and the confirming request's user agent and keyed IP hash). The raw IP is
 * never stored.
 */
export const consents = sqliteTable(
  'consents',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** No foreign key: the record outlives the form (a deleted form still explains the membership). */
    formId: integer('form_id'),
    formName: text('form_name').notNull(),
    /** JSON array of the subscription ids signed up for. */
    subscriptionIds: text('subscription_ids').notNull(),
    signedUpAt: text('signed_up_at').notNull(),
    signupUserAgent: text('signup_user_agent'),
    signupIpHash: text('signup_ip_hash'),
    /** SHA-256 of the confirmation link's token (double opt-in); null once confirmed or for single opt-in. */
    tokenHash: text('token_hash'),
    confirmedAt: text('confirmed_at'),
    confirmUserAgent: text('confirm_user_agent'),
    confirmIpHash: text('confirm_ip_hash'),
    /** An unconfirmed sign-up ends here (7 days). */
    expiresAt: text('expires_at'),
    ...timestamps,
  },
  (t) => [index('consents_contact').on(t.contactId), uniqueIndex('consents_token').on(t.tokenHash), index('consents_org_form').on(t.orgId, t.formId)],
);
