import { render } from '@testing-library/react';
import { navigate } from 'wouter/use-browser-location';
import { Boot } from '../../web/src/app/Boot';
import { createI18n } from '../../web/src/app/i18n';
import { Providers } from '../../web/src/app/Providers';
import type { AppServices } from '../../web/src/lib/services-context';
import { SWRConfig } from 'swr';
import { makeServices, type TestServices } from './helpers';
import type { fakeApi } from './fake-api';

/** Renders the whole console at `path` against a fake API, signed in or not. */
export function renderApp(api: ReturnType<typeof fakeApi>, options: { path?: string; signedIn?: boolean } = {}) {
  window.history.replaceState(null, '', options.path ?? '/');
  const services = makeServices(api.fn, { navigate: (to) => navigate(to), storage: localStorage });
  if (options.signedIn) {
    localStorage.setItem('accessToken', 'acc');
    localStorage.setItem('refreshToken', 'ref');
    localStorage.setItem('authTypeId', '1');
    localStorage.setItem('expiresAt', new Date(Date.now() + 600_000).toISOString());
  }
  const app: AppServices & TestServices = { ...services, i18n: createI18n('en') };
  const view = render(
    <Providers services={app}>
      {/* A fresh SWR cache per test. */}
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <Boot />
      </SWRConfig>
    </Providers>,
  );
  return { ...view, services: app };
}
