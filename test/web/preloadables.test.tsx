import { render, screen, waitFor } from '@testing-library/react';
import { SWRConfig, useSWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import { ServicesContext, type AppServices } from '../../web/src/lib/services-context';
import { preloadRows, useAllRows } from '../../web/src/components/list/use-client-list';
import { json, makeServices, mockFetch } from './helpers';

// Rows preloaded from /init/user are read from the cache without a fetch; once the cache is emptied (a sign-out
// drops every cached answer) the same list fetches its rows again instead of staying empty.

function Rows({ path }: { path: string }) {
  const { data } = useAllRows<{ id: number; name: string }>(path);
  return <div data-testid="rows">{data ? data.map((r) => r.name).join(',') : 'none'}</div>;
}

function Preload({ rows, then }: { rows: { id: number; name: string }[]; then: (mutate: ReturnType<typeof useSWRConfig>['mutate']) => void }) {
  const { mutate } = useSWRConfig();
  preloadRows(mutate, '/field', rows, 0);
  then(mutate);
  return null;
}

describe('preloaded list rows', () => {
  it('are not fetched again while cached, and are fetched when the cache was emptied', async () => {
    const api = mockFetch(() => json(200, { items: [{ id: 2, name: 'fetched' }], meta: { total: 1, page: 1, page_size: 100, total_pages: 1 } }));
    const services = makeServices(api.fn) as unknown as AppServices;
    let clear: () => Promise<unknown> = async () => undefined;
    const view = render(
      <ServicesContext.Provider value={services}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <Preload rows={[{ id: 1, name: 'preloaded' }]} then={(mutate) => (clear = () => mutate(() => true, undefined, { revalidate: false }))} />
          <Rows path="/field" />
        </SWRConfig>
      </ServicesContext.Provider>,
    );
    expect((await screen.findByTestId('rows')).textContent).toBe('preloaded');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(api.calls.filter((c) => c.url.includes('/field'))).toHaveLength(0);

    await clear();
    view.rerender(
      <ServicesContext.Provider value={services}>
        <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
          <Rows path="/field" />
        </SWRConfig>
      </ServicesContext.Provider>,
    );
    await waitFor(() => expect(screen.getByTestId('rows').textContent).toBe('fetched'));
  });
});
