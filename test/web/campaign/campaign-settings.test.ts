import type { Campaign } from '@shared/contracts/campaign';
import { senderMismatchMessage } from '@shared/contracts/template';
import { MESSAGES } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import {
  campaignFormValues,
  campaignPayload,
  emptySetting,
  moveSetting,
  senderFitsSetting,
  settingChipText,
  validateCampaign,
  validateSettings,
  withSender,
  withTemplate,
  type SettingRow,
} from '../../../web/src/features/campaign/settings';

// Campaign settings (spec 5): at least one entry ('At least one item must be selected'); each needs a template
// and a sender that can send it; the optional fixed recipient has the sender type's format. Messages use the
// server's paths (settings.<i>.template_id ...), so the form shows browser and server messages alike.

const htmlTemplate = { id: 1, name: 'Welcome', type: 'html' as const };
const textTemplate = { id: 2, name: 'Code', type: 'text' as const };
const emailSender = { id: 10, value: 'news@acme.test', name: 'News', type: 'email' as const };
const phoneSender = { id: 11, value: '+15005550006', name: null, type: 'phone' as const };

function entry(template: SettingRow['template'], sender: SettingRow['sender'], to = ''): SettingRow {
  return withSender(withTemplate({ ...emptySetting(), to_address: to }, template), sender);
}

describe('campaign settings validation', () => {
  it('needs at least one entry', () => {
    expect(validateSettings([])).toEqual({ settings: [MESSAGES.requiredList] });
    expect(MESSAGES.requiredList).toBe('At least one item must be selected');
  });

  it('needs a template and a sender in every entry, on that entry', () => {
    expect(validateSettings([entry(htmlTemplate, emailSender), emptySetting()])).toEqual({
      'settings.1.template_id': [MESSAGES.required],
      'settings.1.sender_id': [MESSAGES.required],
    });
  });

  it('refuses a sender that cannot send the template', () => {
    const mismatched: SettingRow = { ...entry(htmlTemplate, null), sender: phoneSender, sender_id: phoneSender.id };
    expect(validateSettings([mismatched])).toEqual({ 'settings.0.sender_id': [senderMismatchMessage('html')] });
  });

  it('checks the fixed recipient against the sender type', () => {
    expect(validateSettings([entry(htmlTemplate, emailSender, 'not-an-address')])).toEqual({ 'settings.0.to_address': [MESSAGES.invalidEmail] });
    expect(Object.keys(validateSettings([entry(textTemplate, phoneSender, '12345')]))).toEqual(['settings.0.to_address']);
    expect(
      validateSettings([
        entry(textTemplate, phoneSender, '+15551234567'),
        entry(htmlTemplate, emailSender, 'grace@example.com'),
        entry(htmlTemplate, emailSender),
      ]),
    ).toEqual({});
  });

  it('needs a campaign name too', () => {
    expect(validateCampaign({ name: '  ', settings: [entry(htmlTemplate, emailSender)] })).toEqual({ name: [MESSAGES.required] });
  });
});

describe('sender filtering by template type', () => {
  it('offers email senders for html and email templates, phone senders for text templates, all before a template is chosen', () => {
    expect(senderFitsSetting({ template: htmlTemplate }, 'email')).toBe(true);
    expect(senderFitsSetting({ template: htmlTemplate }, 'phone')).toBe(false);
    expect(senderFitsSetting({ template: { ...htmlTemplate, type: 'email' } }, 'phone')).toBe(false);
    expect(senderFitsSetting({ template: textTemplate }, 'phone')).toBe(true);
    expect(senderFitsSetting({ template: textTemplate }, 'email')).toBe(false);
    expect(senderFitsSetting({ template: null }, 'phone')).toBe(true);
  });

  it('drops a chosen sender that does not fit the newly chosen template, keeps one that does', () => {
    const sms = entry(textTemplate, phoneSender);
    expect(withTemplate(sms, htmlTemplate)).toMatchObject({ template_id: 1, sender_id: null, sender: null });
    const mail = entry({ ...htmlTemplate, type: 'email' as const }, emailSender);
    expect(withTemplate(mail, htmlTemplate)).toMatchObject({ template_id: 1, sender_id: 10 });
  });
});

describe('campaign form values and payload', () => {
  const campaign: Campaign = {
    id: 7,
    name: 'Spring',
    alias: 'spring',
    note: null,
    settings: [
      { template_id: 1, sender_id: 10, to_address: null, template: htmlTemplate, sender: emailSender },
      { template_id: 2, sender_id: 11, to_address: '+15551234567', template: textTemplate, sender: phoneSender },
    ],
    created_at: '2026-11-01T10:00:00Z',
    updated_at: '2026-11-01T10:00:00Z',
  };

  it('starts a new campaign with one empty entry', () => {
    const values = campaignFormValues(null);
    expect(values.settings).toHaveLength(1);
    expect((values.settings as SettingRow[])[0]).toMatchObject({ template_id: null, sender_id: null, to_address: '' });
  });

  it('sends the entries in their order without the display objects, empty recipients as null', () => {
    const values = campaignFormValues(campaign);
    values.settings = moveSetting(values.settings as SettingRow[], 1, 0);
    values.alias = '  ';
    expect(campaignPayload(values)).toEqual({
      name: 'Spring',
      alias: null,
      note: null,
      settings: [
        { template_id: 2, sender_id: 11, to_address: '+15551234567' },
        { template_id: 1, sender_id: 10, to_address: null },
      ],
    });
  });

  it('moves entries only inside the list', () => {
    const rows = campaignFormValues(campaign).settings as SettingRow[];
    expect(moveSetting(rows, 0, 1).map((r) => r.template_id)).toEqual([2, 1]);
    expect(moveSetting(rows, 0, -1)).toBe(rows);
    expect(moveSetting(rows, 1, 2)).toBe(rows);
  });

  it('shows every entry as a chip: template -> sender [-> recipient]', () => {
    expect(campaign.settings.map(settingChipText)).toEqual(['Welcome → news@acme.test', 'Code → +15005550006 → +15551234567']);
    expect(settingChipText({ template_id: 3, sender_id: 4, to_address: null, template: null, sender: null })).toBe('#3 → #4');
  });
});
