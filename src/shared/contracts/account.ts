import { z } from 'zod';
import { SOFT_BOUNCE_DAYS, SOFT_BOUNCE_LIMIT } from './suppression';
import { answer, moment, stampsShape, whole } from '../answer-schema';
import { MESSAGES } from '../messages';
import { LANGUAGES } from '../languages';
import { emailText, optionalText, requiredText } from '../zod-helpers';

// The account area (me/*): profile, organisation, sessions, API key, account deletion.

/** PUT /internal-user/{id}: name plus the login (an email, or a username in simple-sign mode). */
/** PUT /internal-user/:id/language: the console language to keep for the user. */
export const languageUpdateSchema = z.object({ language: z.enum(LANGUAGES, { error: `Must be one of: ${LANGUAGES.join(', ')}` }) }).strict();

export const profileUpdateSchema = z
  .object({
    name: requiredText(200),
    email: emailText().optional(),
    // A username with an @ is an email address, and must be a valid one (it becomes the sign-in name).
    username: z
      .string()
      .trim()
      .min(1, MESSAGES.required)
      .max(254)
      .refine((value) => !value.includes('@') || z.email().safeParse(value).success, MESSAGES.invalidEmail)
      .optional(),
  })
  .strict()
  .refine((input) => input.email === undefined || input.username === undefined, {
    message: 'Give the login as email or as username, not both',
    path: ['username'],
  });

/** How long messages may stay in D1 before they are archived to R2 (days). */
export const RETENTION_DAYS = { min: 7, max: 3650 } as const;
export const RETENTION_MESSAGE = `Must be a whole number of days from ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max}`;

export const SOFT_BOUNCE_LIMIT_MESSAGE = `Must be a whole number from ${SOFT_BOUNCE_LIMIT.min} to ${SOFT_BOUNCE_LIMIT.max}`;
export const SOFT_BOUNCE_DAYS_MESSAGE = `Must be a whole number of days from ${SOFT_BOUNCE_DAYS.min} to ${SOFT_BOUNCE_DAYS.max}`;

/** A whole number within `range`, one sentence for every way it can be wrong. */
const wholeIn = (range: { min: number; max: number }, message: string) =>
  z.number({ error: message }).int(message).min(range.min, message).max(range.max, message);

/**
 * PUT /organization: the current organisation's name (its domain never changes) and its tracking defaults for new
 * broadcasts (omitted: unchanged).
 */
export const organizationUpdateSchema = z
  .object({
    name: requiredText(200),
    track_opens: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
    track_clicks: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
    /** null: the platform's default. */
    message_retention_days: z
      .number({ error: RETENTION_MESSAGE })
      .int(RETENTION_MESSAGE)
      // One rule, one sentence: below the range reads as above it (not the generic greater-than message).
      .min(RETENTION_DAYS.min, RETENTION_MESSAGE)
      .max(RETENTION_DAYS.max, RETENTION_MESSAGE)
      .nullable()
      .optional(),
    /** Soft bounces of an address that suppress it, within soft_bounce_days (src/modules/bounce/soft-bounces.ts). */
    soft_bounce_limit: wholeIn(SOFT_BOUNCE_LIMIT, SOFT_BOUNCE_LIMIT_MESSAGE).optional(),
    soft_bounce_days: wholeIn(SOFT_BOUNCE_DAYS, SOFT_BOUNCE_DAYS_MESSAGE).optional(),
  })
  .strict();
export type OrganizationUpdate = z.infer<typeof organizationUpdateSchema>;

/** GET /organization. */
export const organizationSettingsSchema = answer({
  id: whole(),
  name: z.string(),
  domain: z.string().describe('The subdomain label, e.g. acme'),
  track_opens: z.boolean().describe('Default for new broadcasts: add an open pixel'),
  track_clicks: z.boolean().describe('Default for new broadcasts: send links through the click redirect'),
  message_retention_days: whole().nullable().describe("Days messages stay before they are archived; null: the platform's default"),
  effective_retention_days: whole().describe("The retention that applies: the organisation's own, else the platform's default"),
  soft_bounce_limit: whole().describe('Soft bounces of an address that suppress it (a hard bounce or a spam complaint suppresses at once)'),
  soft_bounce_days: whole().describe('Within how many days those soft bounces count'),
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

/** DELETE /internal-user/{id}: irreversible, so the caller repeats their login to confirm. */
export const accountDeleteSchema = z.object({ confirm: z.string().trim().min(1, MESSAGES.required).max(254) }).strict();

/** GET /session rows: the current user's live sessions. */
export const sessionRowSchema = answer({
  id: z.string(),
  device: z.string().nullable(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  expires_at: moment(),
  refreshes_at: moment().nullable(),
  ...stampsShape,
  current: z.boolean().describe('The session making this request'),
  loggedIn: z.boolean().describe('The same as current, by the name the spec gives it'),
});
export type SessionRow = z.infer<typeof sessionRowSchema>;

/** POST /internal-api-key and PUT /internal-api-key/{id}: only the note is chosen. */
export const apiKeyNoteSchema = z.object({ note: optionalText(500) }).strict();

/** An API key as listed; `key` is present only in the answer to create and regenerate, shown once. */
export const apiKeyRowSchema = answer({
  id: whole(),
  name: z.string().describe("The key's visible prefix"),
  note: z.string().nullable(),
  ...stampsShape,
  key: z.string().optional().describe('The key itself: only in the answers to create and regenerate, shown once'),
});
export type ApiKeyRow = z.infer<typeof apiKeyRowSchema>;

/** The header an API call carries: `<username>:<key>`, plus X-ORG with the organisation domain. */
export const API_KEY_HEADER = 'X-API-KEY';
