import { z } from 'zod';
import { answer, namedRef, stampsShape, whole } from '../answer-schema';
import { MESSAGES } from '../messages';
import { optionalText, requiredText } from '../zod-helpers';
import { SENDER_TYPES } from './sender';
import { TEMPLATE_TYPES, aliasText } from './template';

// Campaigns: named sets of template + sender pairs (optionally with a fixed recipient). Each pair's template
// and sender belong to the organisation and fit each other: html/email templates with email senders, text
// templates with phone senders (SMS) or email senders (plain-text email).
const id = (label: string) =>
  z
    .number({ error: (i) => (i.input == null ? MESSAGES.required : `Choose a ${label}`) })
    .int(`Choose a ${label}`)
    .positive(`Choose a ${label}`);

export const campaignSettingSchema = z
  .object({
    template_id: id('template'),
    sender_id: id('sender'),
    /** Optional fixed recipient, in the sender type's format (email address or +digits phone). */
    to_address: optionalText(254),
  })
  .strict();

export const CAMPAIGN_MAX_SETTINGS = 50;

export const campaignInputSchema = z
  .object({
    name: requiredText(200),
    alias: aliasText(),
    note: optionalText(1000),
    settings: z
      .array(campaignSettingSchema, { error: (i) => (i.input == null ? MESSAGES.requiredList : 'Settings must be a list') })
      .min(1, MESSAGES.requiredList)
      .max(CAMPAIGN_MAX_SETTINGS, `At most ${CAMPAIGN_MAX_SETTINGS} items`),
  })
  .strict();
export type CampaignInput = z.infer<typeof campaignInputSchema>;

export const campaignSettingAnswer = answer({
  template_id: whole(),
  sender_id: whole(),
  to_address: z.string().nullable(),
  template: namedRef({ type: z.enum(TEMPLATE_TYPES) })
    .nullable()
    .describe('Read-only'),
  sender: answer({ id: whole(), value: z.string(), name: z.string().nullable(), type: z.enum(SENDER_TYPES) })
    .nullable()
    .describe('Read-only'),
});
export type CampaignSetting = z.infer<typeof campaignSettingAnswer>;

export const campaignSchema = answer({
  id: whole(),
  name: z.string(),
  alias: z.string().nullable(),
  note: z.string().nullable(),
  settings: z.array(campaignSettingAnswer),
  ...stampsShape,
});
export type Campaign = z.infer<typeof campaignSchema>;
