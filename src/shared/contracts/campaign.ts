import { z } from 'zod';
import { MESSAGES } from '../messages';
import { optionalText, requiredText } from '../zod-helpers';
import type { SenderType } from './sender';
import { aliasText, type TemplateType } from './template';

// Campaigns: named sets of template + sender pairs (optionally with a fixed recipient). Each pair's template
// and sender belong to the organisation and fit each other: html/email templates with email senders, text
// templates with phone senders (SMS) or email senders (plain-text email).
const id = (label: string) =>
  z.number({ error: (i) => (i.input == null ? MESSAGES.required : `Choose a ${label}`) }).int(`Choose a ${label}`).positive(`Choose a ${label}`);

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

export interface CampaignSetting {
  template_id: number;
  sender_id: number;
  to_address: string | null;
  /** Read-only. */
  template: { id: number; name: string; type: TemplateType } | null;
  /** Read-only. */
  sender: { id: number; value: string; name: string | null; type: SenderType } | null;
}

export interface Campaign {
  id: number;
  name: string;
  alias: string | null;
  note: string | null;
  settings: CampaignSetting[];
  created_at: string;
  updated_at: string;
}
