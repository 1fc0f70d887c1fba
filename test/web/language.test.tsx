import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from './fake-api';
import { renderApp } from './render-app';

// The console language is kept with the user: a signed-in user's choice is saved with them, and a session
// restored anywhere (a new browser: nothing in its storage) opens in it.

describe('the language kept with the user', () => {
  it('opens a new browser in the language the user chose', async () => {
    localStorage.clear();
    const { services } = renderApp(fakeApi({ language: 'de' }), { path: '/tag', signedIn: true });
    await waitFor(() => expect(services.i18n.language).toBe('de'), { timeout: 3000 });
    expect(localStorage.getItem('language')).toBe('de');
  });

  it("saves a signed-in user's switch with the user", async () => {
    localStorage.clear();
    const api = fakeApi({ language: null });
    const { services } = renderApp(api, { path: '/tag', signedIn: true });
    const switcher = (await screen.findByTestId('language-switcher', undefined, { timeout: 3000 })) as HTMLSelectElement;
    fireEvent.change(switcher, { target: { value: 'fr' } });
    await waitFor(() =>
      expect(
        api.calls.some((c) => c.method === 'PUT' && c.url.endsWith('/internal-user/5/language') && (c.body as { language: string }).language === 'fr'),
      ).toBe(true),
    );
    // The switch fetches the French strings before it changes the language; the PUT does not wait for it (nor it for
    // the PUT), so the language is waited for on its own, not assumed done once the PUT was made.
    await waitFor(() => expect(services.i18n.language).toBe('fr'));
  });
});
