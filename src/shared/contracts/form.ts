import { z } from 'zod';
import { answer, stampsShape, whole } from '../answer-schema';
import { optionalText, requiredText } from '../zod-helpers';

// Hosted sign-up forms (issue 39): the entity the console and API edit (src/modules/form) and the public page at the
// organisation's host, /f/<public_key>, renders (src/modules/form/public). Messages are plain strings here so the
// console can map them to its locales (web/src/lib/message-keys.ts) without pulling zod into its first script.

export const FORM_LIMITS = {
  perOrganisation: 50,
  subscriptions: 20,
  fields: 20,
  origins: 20,
  successMessage: 1000,
  /** A submission's body (bytes): a sign-up is small; anything larger is refused unread. */
  bodyBytes: 8 * 1024,
} as const;

/** What a form asks: the email (always, required), the name, a phone number, or a custom field (by alias). */
export const FORM_FIELD_KINDS = ['email', 'name', 'phone', 'custom'] as const;
export type FormFieldKind = (typeof FORM_FIELD_KINDS)[number];

export const formFieldSchema = z
  .object({
    kind: z.enum(FORM_FIELD_KINDS),
    /** For kind 'custom': the field's alias (fields.alias). */
    alias: z.string().max(100).optional(),
    required: z.boolean().default(false),
  })
  .strict();
export type FormField = z.infer<typeof formFieldSchema>;

export const FORM_MESSAGES = {
  emailFirst: 'The email field is always asked and required',
  unknownSubscription: 'Choose subscriptions of this organisation',
  unknownField: 'Choose custom fields of this organisation',
  duplicateField: 'Each field can be asked once',
  origin: 'Give origins as scheme://host (https, or http for localhost)',
  redirectOrigin: 'The redirect must be on one of the allowed origins',
  senderEmail: 'Choose an email sender of this organisation',
  templateEmail: 'Choose an email template of this organisation',
  tooMany: `At most ${FORM_LIMITS.perOrganisation} forms`,
} as const;

const origin = z.string().max(200);

/**
 * POST /form and PUT /form/{id}. No zod defaults on the top-level fields: PATCH is this schema's partial(), where a
 * default would reset an omitted field; a new form gets them from the table (double opt-in on, enabled, no origins).
 */
export const formInputSchema = z
  .object({
    name: requiredText(100),
    subscription_ids: z.array(whole().positive()).min(1, 'Choose at least one subscription').max(FORM_LIMITS.subscriptions),
    fields: z.array(formFieldSchema).min(1).max(FORM_LIMITS.fields),
    double_opt_in: z.boolean().optional().describe('Default true'),
    success_message: optionalText(FORM_LIMITS.successMessage),
    redirect_url: z.string().max(2000).nullable().optional(),
    allowed_origins: z.array(origin).max(FORM_LIMITS.origins).optional().describe('Default none'),
    sender_id: whole().positive().nullable().optional(),
    template_id: whole().positive().nullable().optional(),
    enabled: z.boolean().optional().describe('Default true'),
  })
  .strict();
export type FormInput = z.infer<typeof formInputSchema>;

export const formSchema = answer({
  id: whole(),
  public_key: z.string(),
  name: z.string(),
  subscription_ids: z.array(whole()),
  fields: z.array(formFieldSchema),
  double_opt_in: z.boolean(),
  success_message: z.string().nullable(),
  redirect_url: z.string().nullable(),
  allowed_origins: z.array(z.string()),
  sender_id: whole().nullable(),
  template_id: whole().nullable(),
  enabled: z.boolean(),
  /** The hosted page's address at the organisation's host. */
  url: z.string(),
  /** Sign-ups: pending and confirmed (counted from the consents). */
  signups: answer({ pending: whole(), confirmed: whole() }),
  ...stampsShape,
});
export type Form = z.infer<typeof formSchema>;

/** The hosted form's own field names (what the embed snippet posts). */
export const FORM_POST_FIELDS = {
  email: 'email',
  name: 'name',
  phone: 'phone',
  /** A custom field: `field.<alias>`. */
  customPrefix: 'field.',
  /** Checkboxes of the subscriptions offered (when several): `subscription` repeated, each an id. */
  subscription: 'subscription',
  /** The hidden field a person leaves empty and a bot fills. */
  honeypot: 'website',
  /** Turnstile's token, as its widget names it. */
  turnstile: 'cf-turnstile-response',
  language: 'lang',
} as const;
