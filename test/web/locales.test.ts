import { MESSAGES } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../web/src/lib/config';
import { LOCALES } from './all-locales';

/** Flattens nested locale objects into dotted keys. */
function flatten(value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out[prefix] = value;
  }
  return out;
}

const flat = Object.fromEntries(LANGUAGES.map((code) => [code, flatten(LOCALES[code])]));
const englishKeys = Object.keys(flat.en).sort();

describe('locale files', () => {
  it('exist for all eight languages', () => {
    expect([...LANGUAGES].sort()).toEqual(['de', 'en', 'es', 'fr', 'pt', 'ro', 'ru', 'zh']);
    for (const code of LANGUAGES) expect(Object.keys(flat[code]).length).toBeGreaterThan(50);
  });

  it.each(LANGUAGES.filter((c) => c !== 'en'))('%s has exactly the same keys as en', (code) => {
    expect(Object.keys(flat[code]).sort()).toEqual(englishKeys);
  });

  it.each([...LANGUAGES])('%s has only non-empty string values', (code) => {
    for (const [key, value] of Object.entries(flat[code])) {
      expect(typeof value, `${code}:${key}`).toBe('string');
      expect((value as string).trim(), `${code}:${key}`).not.toBe('');
    }
  });

  it.each(LANGUAGES.filter((c) => c !== 'en'))('%s is translated, not an English copy', (code) => {
    // Brand names, abbreviations and words a language shares with English may stay the same; nothing else.
    const sameEverywhere = [
      'app.name',
      'list.columns.id',
      'list.total',
      // channels: protocol and brand names, an example host name
      'integrations.fields.tls',
      'integrations.hints.serverExample',
      'integrations.types.smtp',
      'integrations.types.twilio',
      'templates.types.html',
      // broadcasts: SMS
      'broadcasts.types.phone',
      'messages.types.sms',
      // dashboard: SMS, MB
      'dashboard.series.sms',
      'dashboard.mb',
      // domains: protocol names
      'domains.kinds.spf',
      'domains.kinds.dmarc',
      'domains.alignment.dkim',
      'domains.alignment.spf',
      // webhooks: the borrowed word, URL, SMS, milliseconds
      'webhooks.nav',
      'webhooks.title',
      'webhooks.fields.url',
      'webhooks.families.sms',
      'webhooks.ms',
      // engagement: an unsubscribe made through the API
      'engagement.sources.api',
    ];
    const cognates: Record<string, string[]> = {
      de: [
        // forms: Name
        'forms.fieldKinds.name',
        'forms.fields.name',
        'nav.import',
        'engagement.sources.import',
        'nav.domains',
        'account.organization',
        'home.organization',
        'profile.organization',
        'test.organization',
        'tags.fields.name',
        // audience: Name, Tags, Tag, Integration, Browser, Status, Option
        'contacts.fields.name',
        'fields.fields.name',
        'subscriptions.fields.name',
        'imports.targets.name',
        'contacts.fields.tags',
        'contacts.filters.tags',
        'imports.targets.tags',
        'activityLog.entities.tag',
        'activityLog.entities.integration',
        'activityLog.fields.browser',
        'imports.history.status',
        'fields.optionLabel',
        // channels: Variable, Optional
        'templates.placeholders.variable',
        'campaigns.hints.toAddress',
        // broadcasts: Alias, Name, Status, Tags
        'broadcasts.fields.alias',
        'broadcasts.fields.name',
        'broadcasts.fields.status',
        'broadcasts.filter.tags',
        'messages.fields.status',
        // engagement: Person, Link, Tracking
        'engagement.classes.human',
        'engagement.link',
        'engagement.tracking',
        // messages: Test (a kind), Sandbox
        'messages.kinds.test',
        'messages.sandbox',
      ],
      fr: [
        // forms: the borrowed term
        'forms.fields.doubleOptIn',
        'nav.contacts',
        'nav.messages',
        'list.actions',
        'account.organization',
        'account.session',
        'profile.organization',
        'test.organization',
        // audience: Contacts, Contact, Message, Action, Date, Type, Options, Option
        'contacts.title',
        'activityLog.entities.contact',
        'imports.groups.contact',
        'activityLog.entities.message',
        'activityLog.fields.action',
        'activityLog.fields.date',
        'blacklist.fields.type',
        'fields.fields.type',
        'fields.fields.options',
        'fields.optionLabel',
        // channels: Active, Variable
        'integrations.statuses.active',
        'templates.placeholders.variable',
        // broadcasts: Alias, Note, Type, Tags, Contact, Messages
        'broadcasts.fields.alias',
        'broadcasts.fields.note',
        'broadcasts.fields.type',
        'broadcasts.filter.tags',
        'broadcasts.recipientColumns.contact',
        'messages.fields.contact',
        'messages.fields.type',
        'messages.title',
        'retention.messages',
        // engagement: Engagement, Contact, Console
        'engagement.title',
        'engagement.columns.contact',
        'engagement.sources.console',
        // dashboard: Contacts
        'dashboard.series.contacts',
        'dashboard.charts.contacts.title',
        // messages: Test (a kind), Cc
        'messages.kinds.test',
        'messages.fields.cc',
      ],
      ro: [
        'nav.import',
        'engagement.sources.import',
        'broadcasts.fields.alias',
        'broadcasts.recipientColumns.contact',
        'messages.fields.contact',
        'messages.kinds.test',
      ],
      ru: [],
      pt: ['broadcasts.fields.alias', 'engagement.link', 'dashboard.series.megabytes', 'messages.fields.cc'],
      es: [
        // forms: No
        'forms.no',
        'audience.no', // No
        // channels: Variable
        'templates.placeholders.variable',
        // broadcasts: Alias, No, Error
        'broadcasts.fields.alias',
        'broadcasts.no',
        'messages.fields.error',
        // dashboard: Megabytes
        'dashboard.series.megabytes',
      ],
      zh: [],
    };
    const allowed = new Set([...sameEverywhere, ...(cognates[code] ?? [])]);
    const copies = englishKeys.filter((key) => flat[code][key] === flat.en[key] && !allowed.has(key));
    expect(copies).toEqual([]);
  });

  it('keeps the same interpolation placeholders in every language', () => {
    const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort();
    for (const code of LANGUAGES) {
      for (const key of englishKeys) expect(placeholders(flat[code][key] as string), `${code}:${key}`).toEqual(placeholders(flat.en[key] as string));
    }
  });

  it('has a translation key for every shared server message, with the exact English text', () => {
    for (const [key, text] of Object.entries(MESSAGES)) expect(flat.en[`server.${key}`]).toBe(text);
  });

  it('says Page not found and Organisation not found in English', () => {
    expect(flat.en['notFound.title']).toBe('Page not found');
    expect(flat.en['orgNotFound.title']).toBe('Organisation not found');
  });
});
