import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { fakeApi } from '../fake-api';
import { fakeAudienceApi, FIELDS } from '../fake-audience-api';
import { json } from '../helpers';
import { renderApp } from '../render-app';
import { UploadXhr } from './upload-xhr';

// Issue 39: an import may add every contact as a confirmed member of subscriptions (the organisation collected the
// consent), chosen beside the tags every contact gets, sent as subscription_ids and shown in the past imports.
// POST /import's subscription_ids is mocked here to the contract's shape.

beforeAll(async () => {
  await import('../../../web/src/features/import/ImportPage');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const NOW = '2026-11-27T10:00:00.000Z';
const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
const SUBSCRIPTIONS = [
  { id: 1, name: 'News', priority: 1, created_at: NOW, updated_at: NOW },
  { id: 2, name: 'Offers', priority: 2, created_at: NOW, updated_at: NOW },
];
const PAST = {
  id: 5,
  file_name: 'fair.csv',
  file_size: 24,
  status: 'success',
  skip_first_line: true,
  delimiter: 'comma',
  encoding: 'utf-8',
  mapping: [],
  tag_ids: [],
  subscription_ids: [2, 9],
  created_count: 1,
  updated_count: 0,
  rejected_count: 0,
  rejections: null,
  processed_bytes: 24,
  processed_rows: 1,
  error: null,
  created_at: NOW,
  updated_at: NOW,
  finished_at: NOW,
};

function renderImport() {
  const api = fakeAudienceApi({
    fields: FIELDS,
    answer: (call) => {
      const path = new URL(call.url, 'http://x').pathname;
      if (call.method === 'GET' && path === '/api/v1/subscription')
        return json(200, { items: SUBSCRIPTIONS, meta: { total: 2, page: 1, page_size: 100, total_pages: 1 } });
      if (call.method === 'GET' && path === '/api/v1/import') return json(200, { items: [PAST], meta: { total: 1, page: 1, page_size: 10, total_pages: 1 } });
      if (call.method === 'POST' && path === '/api/v1/import') return json(201, { data: { ...PAST, id: 7, status: 'new', ...(call.body as object) } });
      return null;
    },
  });
  renderApp(api as unknown as ReturnType<typeof fakeApi>, { path: '/contact/import', signedIn: true });
  return api;
}

describe('subscriptions every imported contact joins', () => {
  it('are chosen on the review step and sent as subscription_ids', async () => {
    vi.stubGlobal('XMLHttpRequest', UploadXhr);
    const api = renderImport();
    fireEvent.change(await find('import-file'), { target: { files: [new File(['name,email\nAnn,ann@x.io\n'], 'people.csv', { type: 'text/csv' })] } });
    await waitFor(() => expect(screen.getAllByTestId('import-preview-row')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('import-next'));
    await screen.findAllByTestId('mapping-target');
    fireEvent.click(screen.getByTestId('import-next'));

    const picker = await find('import-subscribe-all');
    expect(screen.getByText('Subscriptions every imported contact joins')).toBeTruthy();
    expect(screen.getByText(/Confirmed: you collected their consent/)).toBeTruthy();
    fireEvent.click(picker);
    fireEvent.click(await screen.findByRole('option', { name: 'Offers', hidden: true }));
    fireEvent.click(screen.getByTestId('import-start'));
    await find('import-started');
    const start = api.calls.find((call) => call.method === 'POST' && new URL(call.url, 'http://x').pathname === '/api/v1/import');
    expect(start?.body).toMatchObject({ subscription_ids: [2], tag_ids: [] });
  });

  it('are none unless chosen', async () => {
    vi.stubGlobal('XMLHttpRequest', UploadXhr);
    const api = renderImport();
    fireEvent.change(await find('import-file'), { target: { files: [new File(['name,email\nAnn,ann@x.io\n'], 'people.csv', { type: 'text/csv' })] } });
    await waitFor(() => expect(screen.getAllByTestId('import-preview-row')).toHaveLength(1));
    fireEvent.click(screen.getByTestId('import-next'));
    await screen.findAllByTestId('mapping-target');
    fireEvent.click(screen.getByTestId('import-next'));
    fireEvent.click(await find('import-start'));
    await find('import-started');
    const start = api.calls.find((call) => call.method === 'POST' && new URL(call.url, 'http://x').pathname === '/api/v1/import');
    expect(start?.body).toMatchObject({ subscription_ids: [] });
  });

  it('are shown by name in the past imports (a deleted one by its id)', async () => {
    renderImport();
    const row = (await screen.findAllByTestId('list-row', undefined, { timeout: 3000 }))[0];
    await waitFor(() => expect(within(row).getByTestId('import-subscriptions').textContent).toBe('Offers, #9'));
  });
});
