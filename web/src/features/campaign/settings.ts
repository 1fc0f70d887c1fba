import { addressError } from '@shared/address';
import type { Campaign, CampaignInput, CampaignSetting } from '@shared/contracts/campaign';
import type { SenderType } from '@shared/contracts/sender';
import { senderFitsTemplate, senderMismatchMessage, type TemplateType } from '@shared/contracts/template';
import { MESSAGES } from '@shared/messages';
import type { FormValues } from '../../components/form/types';

// The campaign's settings: an ordered list of template + sender (+ optional fixed recipient) entries.
// At least one entry; each needs a template and a sender that can send it (html/email templates go by email,
// text templates by SMS or email), and a recipient, when given, in the sender type's format.

/** One settings entry as the form edits it (`key` keeps React rows stable while entries move). */
export interface SettingRow {
  key: string;
  template_id: number | null;
  sender_id: number | null;
  to_address: string;
  /** What the select shows (from the campaign or the user's choice). */
  template: { id: number; name: string; type: TemplateType } | null;
  sender: { id: number; value: string; name: string | null; type: SenderType } | null;
}

let nextKey = 0;
const newKey = () => `setting-${++nextKey}`;

/** A new, empty entry. */
export function emptySetting(): SettingRow {
  return { key: newKey(), template_id: null, sender_id: null, to_address: '', template: null, sender: null };
}

/** The form's entries of a saved campaign (one empty entry for a new one). */
export function settingRows(settings: CampaignSetting[] | null | undefined): SettingRow[] {
  if (!settings?.length) return [emptySetting()];
  return settings.map((s) => ({
    key: newKey(),
    template_id: s.template_id,
    sender_id: s.sender_id,
    to_address: s.to_address ?? '',
    template: s.template,
    sender: s.sender,
  }));
}

/** Whether a sender fits the entry's template (any sender while no template is chosen). */
export function senderFitsSetting(row: Pick<SettingRow, 'template'>, senderType: SenderType): boolean {
  return !row.template || senderFitsTemplate(row.template.type, senderType);
}

/** The entry after choosing a template: a sender that cannot send it is dropped. */
export function withTemplate(row: SettingRow, template: SettingRow['template']): SettingRow {
  const next = { ...row, template, template_id: template?.id ?? null };
  if (template && row.sender && !senderFitsTemplate(template.type, row.sender.type)) return { ...next, sender: null, sender_id: null };
  return next;
}

/** The entry after choosing a sender. */
export function withSender(row: SettingRow, sender: SettingRow['sender']): SettingRow {
  return { ...row, sender, sender_id: sender?.id ?? null };
}

/** Moves the entry at `from` to `to` (an index in the list); other moves leave the list unchanged. */
export function moveSetting(rows: SettingRow[], from: number, to: number): SettingRow[] {
  if (from === to || from < 0 || to < 0 || from >= rows.length || to >= rows.length) return rows;
  const next = rows.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

/** Browser checks of the settings, keyed like the server's 422 (settings, settings.<i>.template_id ...). */
export function validateSettings(rows: SettingRow[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!rows.length) errors.settings = [MESSAGES.requiredList];
  rows.forEach((row, i) => {
    if (row.template_id === null) errors[`settings.${i}.template_id`] = [MESSAGES.required];
    if (row.sender_id === null) errors[`settings.${i}.sender_id`] = [MESSAGES.required];
    else if (row.template && row.sender && !senderFitsTemplate(row.template.type, row.sender.type))
      errors[`settings.${i}.sender_id`] = [senderMismatchMessage(row.template.type)];
    const to = row.to_address.trim();
    if (to && row.sender) {
      const problem = addressError(row.sender.type, to);
      if (problem) errors[`settings.${i}.to_address`] = [problem];
    }
  });
  return errors;
}

/** Browser checks of the whole campaign form. */
export function validateCampaign(values: FormValues): Record<string, string[]> {
  const errors = validateSettings((values.settings as SettingRow[] | undefined) ?? []);
  if (!String(values.name ?? '').trim()) errors.name = [MESSAGES.required];
  return errors;
}

/** Starting values of the form. */
export function campaignFormValues(item: Campaign | null): FormValues {
  return { name: item?.name ?? '', alias: item?.alias ?? '', note: item?.note ?? '', settings: settingRows(item?.settings) };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** POST /campaign and PUT /campaign/{id} body: the entries in their order, without the display objects. */
export function campaignPayload(values: FormValues): CampaignInput {
  const rows = (values.settings as SettingRow[] | undefined) ?? [];
  return {
    name: text(values.name).trim(),
    alias: text(values.alias).trim() || null,
    note: text(values.note).trim() || null,
    settings: rows.map((row) => ({ template_id: row.template_id as number, sender_id: row.sender_id as number, to_address: row.to_address.trim() || null })),
  };
}

/** A chip's text for the list: 'template -> sender' and '-> recipient' when there is one. */
export function settingChipText(setting: Pick<CampaignSetting, 'template_id' | 'sender_id' | 'to_address' | 'template' | 'sender'>): string {
  const template = setting.template?.name ?? `#${setting.template_id}`;
  const sender = setting.sender ? setting.sender.value : `#${setting.sender_id}`;
  return [template, sender, ...(setting.to_address ? [setting.to_address] : [])].join(' → ');
}
