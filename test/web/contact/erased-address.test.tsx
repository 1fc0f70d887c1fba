import { PRIVACY_MESSAGES } from '@shared/contracts/privacy';
import { MESSAGES } from '@shared/messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createI18n, loadLocale } from '../../../web/src/app/i18n';
import { LANGUAGES } from '../../../web/src/lib/config';
import { translateServerMessage } from '../../../web/src/lib/server-messages';
import type { fakeApi } from '../fake-api';
import { fakeAudienceApi, FIELDS } from '../fake-audience-api';
import { json } from '../helpers';
import { renderApp } from '../render-app';

// An address on the "do not re-add" list (src/modules/privacy/erased-list.ts): the contact API's 422 names it on the
// address, and an import's rejected row gives it as the reason; the console shows it in the user's language.

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });

describe('the erased-address message', () => {
  it.each(LANGUAGES.filter((code) => code !== 'en'))('is translated in %s', async (code) => {
    const i18n = createI18n(code, { [code]: await loadLocale(code) });
    const t = i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
    const text = translateServerMessage(t, PRIVACY_MESSAGES.erasedAddress);
    expect(text).not.toBe(PRIVACY_MESSAGES.erasedAddress);
    expect(text).not.toBe('audience.messages.erasedAddress');
  });

  it('sits under the address the contact form sent', async () => {
    const api = fakeAudienceApi({
      fields: FIELDS,
      answer: (call) =>
        call.method === 'POST' && call.url.endsWith('/api/v1/contact')
          ? json(422, {
              error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields: { 'addresses.1.value': [PRIVACY_MESSAGES.erasedAddress] } },
            })
          : null,
    });
    renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/contact/create', signedIn: true });
    fireEvent.change(await find('form-field-name'), { target: { value: 'Ann' } });
    fireEvent.change((await screen.findAllByTestId('address-value'))[0], { target: { value: 'ann@x.io' } });
    fireEvent.click(await find('address-add'));
    const rows = await screen.findAllByTestId('address-row');
    fireEvent.change(within(rows[1]).getByTestId('address-value'), { target: { value: 'gone@x.io' } });
    fireEvent.click(await find('form-submit'));
    await waitFor(() => expect(within(screen.getAllByTestId('address-row')[1]).queryByText(PRIVACY_MESSAGES.erasedAddress)).not.toBeNull());
    expect(within(screen.getAllByTestId('address-row')[0]).queryByText(PRIVACY_MESSAGES.erasedAddress)).toBeNull();
  });
});
