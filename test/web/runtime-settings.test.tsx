import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeSettingsOf } from '../../web/src/lib/runtime-settings';
import { ServicesContext, type AppServices } from '../../web/src/lib/services-context';
import { useUpdatesCheck } from '../../web/src/app/updates-check';
import { guestInitAtom } from '../../web/src/lib/session-state';
import { fakeApi } from './fake-api';
import { json, makeServices, mockFetch } from './helpers';
import { renderApp } from './render-app';

// The console reads its runtime settings from /init/guest (spec 3), not from build-time constants: where the API
// is, which routes exist, how many rows "delete all" removes per request, how often it looks for a new version.

const byTestId = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });

describe('console runtime settings', () => {
  afterEach(() => act(() => notifications.clean()));

  it('fills what an older server does not send with the build values', () => {
    const settings = runtimeSettingsOf({ settings: { 'api.baseUrl': 'https://api.relay.example', removingPageSize: 7 } as never });
    expect(settings).toMatchObject({
      apiBaseUrl: 'https://api.relay.example/api/v1',
      apiOrigin: 'https://api.relay.example',
      removingPageSize: 7,
      updatesInterval: 120_000,
      logUrl: '/api/v1/log',
    });
    expect(runtimeSettingsOf(null)).toMatchObject({ apiBaseUrl: '/api/v1', staticPages: ['terms', 'privacy'], disabledRoutes: [], dialogEnabled: true });
  });

  it('sends every call to the API path the server names, and deletes all with its removing page size', async () => {
    const api = fakeApi({ tags: ['a', 'b', 'c', 'd', 'e'], settings: { 'api.path': '/api/v2', removingPageSize: 2 } });
    renderApp(api, { path: '/tag', signedIn: true });
    await waitFor(() => expect(screen.queryAllByTestId('list-row')).toHaveLength(5), { timeout: 3000 });
    const afterInit = api.calls.slice(1);
    expect(api.calls[0].url).toBe('/api/v1/init/guest'); // the one call made before the settings are known
    expect(afterInit.length).toBeGreaterThan(0);
    expect(afterInit.every((c) => c.url.startsWith('/api/v2/'))).toBe(true);

    fireEvent.click(await byTestId('list-delete-all'));
    fireEvent.click(await byTestId('confirm-ok'));
    await waitFor(() => expect(api.tags()).toEqual([]), { timeout: 3000 });
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.body)).toEqual([1, 2, 3].map(() => ({ all: true, page_size: 2 })));
  });

  it('leaves out the routes the server disables', async () => {
    renderApp(fakeApi({ settings: { disabledRoutes: ['tag_list'] } }), { path: '/tag', signedIn: true });
    expect((await byTestId('not-found')).textContent).toContain('Page not found');
  });

  it('asks for the version every updatesInterval, not only on API answers', async () => {
    const api = mockFetch(() => json(200, { status: 'ok' }, { 'x-version': '1.0.0' }));
    const services = makeServices(api.fn);
    const store = createStore();
    store.set(guestInitAtom, { settings: { updatesInterval: 60, 'api.baseUrl': '' } } as never);
    function Probe() {
      useUpdatesCheck();
      return null;
    }
    const view = render(
      <ServicesContext.Provider value={services as unknown as AppServices}>
        <Provider store={store}>
          <Probe />
        </Provider>
      </ServicesContext.Provider>,
    );
    await waitFor(() => expect(api.calls.length).toBeGreaterThanOrEqual(3), { timeout: 2000 });
    expect(new Set(api.calls.map((c) => c.url))).toEqual(new Set(['/api/health']));
    view.unmount();
    const made = api.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.calls.length).toBe(made); // stopped with the console
  });
});
