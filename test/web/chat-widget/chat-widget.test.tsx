import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// The optional chat widget: its script is added for signed-in users when the platform has one, never for a guest,
// and not at all when it is off. (The public unsubscribe page is the worker's own html, with no console at all.)

const WIDGET = { base_url: 'https://chat.example.com', website_token: 'wt-123' };

/** The fake API with /init/guest naming a chat widget. */
function withWidget() {
  const base = fakeApi();
  return mockFetch(async (call: FetchCall) => {
    const forward = () =>
      base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) });
    if (!call.url.endsWith('/init/guest')) return forward();
    const answer = (await (await forward()).json()) as { data: Record<string, unknown> };
    return json(200, { data: { ...answer.data, chat_widget: WIDGET } });
  }) as unknown as ReturnType<typeof fakeApi>;
}

const sdk = () => document.querySelector<HTMLScriptElement>('script#chat-widget-sdk');

describe('the chat widget', () => {
  afterEach(() => sdk()?.remove());

  it('loads the provider script for a signed-in user', async () => {
    renderApp(withWidget(), { path: '/', signedIn: true });
    await screen.findByTestId('dashboard', undefined, { timeout: 3000 });
    expect(sdk()?.src).toBe('https://chat.example.com/packs/js/sdk.js');
  });

  it('is never loaded for a guest', async () => {
    renderApp(withWidget(), { path: '/' });
    await screen.findByTestId('signin-card', undefined, { timeout: 3000 });
    expect(sdk()).toBeNull();
  });

  it('is not loaded when the platform has none', async () => {
    renderApp(fakeApi(), { path: '/', signedIn: true });
    await screen.findByTestId('dashboard', undefined, { timeout: 3000 });
    expect(sdk()).toBeNull();
  });
});
