import { atMostCharacters, greaterThan, MESSAGES } from '@shared/messages';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../web/src/lib/config';
import { LOCALES } from './all-locales';
import { MESSAGE_KEYS } from '../../web/src/lib/message-keys';
import { fieldErrorText } from '../../web/src/lib/field-errors';
import { translateServerMessage } from '../../web/src/lib/server-messages';
import { senderMismatchMessage, TEMPLATE_MESSAGES } from '@shared/contracts/template';

async function translator(language: string) {
  const i18n = createInstance();
  await i18n.init({
    showSupportNotice: false,
    lng: language,
    fallbackLng: false,
    resources: { [language]: { translation: LOCALES[language as keyof typeof LOCALES] } },
  });
  return i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
}

describe('server messages in the user language (one map: web/src/lib/message-keys.ts)', () => {
  it('has every mapped key in every language', async () => {
    for (const language of LANGUAGES) {
      const t = await translator(language);
      for (const [text, key] of MESSAGE_KEYS) {
        const shown = t(key);
        expect(shown, `${language}: ${key}`).not.toBe(key);
        if (language !== 'en') expect(shown, `${language}: ${text}`).not.toBe('');
      }
    }
  });

  it('translates the generic texts with their values, which reached every language in English before', async () => {
    const de = await translator('de');
    expect(translateServerMessage(de, atMostCharacters(200))).toBe('Höchstens 200 Zeichen');
    expect(translateServerMessage(de, greaterThan(0))).toBe('Der Wert muss größer als „0“ sein');
    expect(translateServerMessage(de, MESSAGES.mustBeBoolean)).toBe('Muss wahr oder falsch sein');
    const en = await translator('en');
    expect(translateServerMessage(en, greaterThan(-1))).toBe('Value must be greater than "-1"');
    expect(translateServerMessage(en, atMostCharacters(50))).toBe('At most 50 characters');
  });

  it('tells the text template rule apart from the email one, and leaves unknown texts as sent', async () => {
    const fr = await translator('fr');
    expect(translateServerMessage(fr, senderMismatchMessage('text'))).toBe(translateServerMessage(fr, TEMPLATE_MESSAGES.textNeedsPhone));
    expect(translateServerMessage(fr, senderMismatchMessage('text'))).not.toBe(translateServerMessage(fr, senderMismatchMessage('html')));
    expect(translateServerMessage(fr, 'SMTP said 550 mailbox unavailable')).toBe('SMTP said 550 mailbox unavailable');
    expect(fieldErrorText(fr, [MESSAGES.required, atMostCharacters(10)])).toBe(`${fr('server.required')} ${fr('server.atMostCharacters', { count: 10 })}`);
    expect(fieldErrorText(fr, undefined)).toBeUndefined();
  });
});
