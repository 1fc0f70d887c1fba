import { Badge, createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { SWRConfig } from 'swr';
import { ServicesContext, type AppServices } from '../lib/services-context';

// Badges keep their whole label: a narrow table column would otherwise cut "EMAIL" to "EMA…" (a chip meant to
// wrap long text sets its own min width).
const theme = createTheme({ primaryColor: 'indigo', defaultRadius: 'md', components: { Badge: Badge.extend({ defaultProps: { miw: 'max-content' } }) } });

/** SWR keys are a path or [path, query, ...extra]; they are fetched through our API client as user calls (extra parts only tell keys apart). */
export type SwrKey = string | readonly [string, Record<string, unknown>?, ...unknown[]];

/** Wraps the app in Mantine (with notifications and modals), SWR on our API client, jotai and i18next. */
export function Providers({ services, children }: { services: AppServices; children: ReactNode }) {
  const fetcher = (key: SwrKey) => (typeof key === 'string' ? services.client.get(key) : services.client.get(key[0], key[1]));
  return (
    <ServicesContext.Provider value={services}>
      <JotaiProvider store={services.store}>
        <I18nextProvider i18n={services.i18n}>
          <SWRConfig value={{ fetcher, revalidateOnFocus: false, shouldRetryOnError: false }}>
            <MantineProvider theme={theme}>
              {/* Top right, over the header for their few seconds: at the bottom left they covered the first columns of tables. */}
              <Notifications position="top-right" containerWidth={340} />
              <ModalsProvider>{children}</ModalsProvider>
            </MantineProvider>
          </SWRConfig>
        </I18nextProvider>
      </JotaiProvider>
    </ServicesContext.Provider>
  );
}
