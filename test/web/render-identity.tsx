import { render } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { navigate } from 'wouter/use-browser-location';
import { Boot } from '../../web/src/app/Boot';
import { createI18n } from '../../web/src/app/i18n';
import { LOCALES } from './all-locales';
import { Providers } from '../../web/src/app/Providers';
import type { AppServices } from '../../web/src/lib/services-context';
import { makeServices, type TestServices } from './helpers';
import type { identityApi } from './identity-api';

/** Renders the whole console at `path` against the identity fake API (organisation or platform host). */
export function renderIdentity(api: ReturnType<typeof identityApi>, path = '/', language = 'en') {
  window.history.replaceState(null, '', path);
  const services = makeServices(api.fn, { navigate: (to) => navigate(to), storage: localStorage });
  const app: AppServices & TestServices = { ...services, i18n: createI18n(language as 'en', LOCALES) };
  const view = render(
    <Providers services={app}>
      <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
        <Boot />
      </SWRConfig>
    </Providers>,
  );
  return { ...view, services: app };
}
