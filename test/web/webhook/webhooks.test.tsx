import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Endpoint, HEADER_VALUE_MASK, WEBHOOK_MESSAGES } from '@shared/contracts/webhook';
import { MESSAGES } from '@shared/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointForm, emptyEndpointForm, endpointInputOf } from '../../../web/src/features/webhook/endpoint-form-values';
import { fakeApi } from '../fake-api';
import { type FetchCall, json, mockFetch } from '../helpers';
import { renderApp } from '../render-app';

// The Webhooks screen (issue 38) against an in-memory /webhooks that follows the shared contract: the list with its
// state badges, the add form's checks (in the browser and the API's 422), the secret shown once, rotation.

beforeAll(async () => {
  await import('../../../web/src/features/webhook/WebhookListPage');
});

const NOW = '2026-11-01T10:00:00.000Z';
const ENDPOINT: Endpoint = {
  id: 1,
  url: 'https://crm.example.com/hooks',
  description: 'CRM',
  event_types: ['message.sent', 'contact.created'],
  headers: { Authorization: HEADER_VALUE_MASK },
  enabled: true,
  batch: false,
  state: 'active',
  disabled_reason: null,
  disabled_at: null,
  failing_since: null,
  previous_secret_until: null,
  created_at: NOW,
  updated_at: NOW,
};
const GONE: Endpoint = { ...ENDPOINT, id: 2, url: 'https://old.example.com/x', event_types: ['*'], enabled: false, state: 'disabled', disabled_reason: 'gone' };

function fakeWebhookApi() {
  const base = fakeApi();
  const endpoints = [structuredClone(ENDPOINT), structuredClone(GONE)];
  let secrets = 0;
  const handle = (call: FetchCall): Response | null => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/webhooks' && call.method === 'GET')
      return json(200, { items: endpoints, meta: { total: endpoints.length, page: 1, page_size: 20, total_pages: 1 } });
    if (path === '/webhooks' && call.method === 'POST') {
      const body = call.body as { url: string; event_types: string[] };
      if (body.url.includes('10.0.0.1'))
        return json(422, { error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields: { url: [WEBHOOK_MESSAGES.url] } } });
      const row: Endpoint = { ...ENDPOINT, id: 10 + endpoints.length, url: body.url, event_types: body.event_types as Endpoint['event_types'], headers: {} };
      endpoints.push(row);
      return json(201, { data: { ...row, secret: `whsec_first${++secrets}` } });
    }
    const rotate = /^\/webhooks\/(\d+)\/rotate-secret$/.exec(path);
    if (rotate && call.method === 'POST') return json(200, { data: { ...endpoints[0], secret: `whsec_rotated${++secrets}` } });
    return null;
  };
  const mock = mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  return { ...mock, endpoints: () => endpoints };
}

type FakeWebhookApi = ReturnType<typeof fakeWebhookApi>;
const asApi = (api: FakeWebhookApi) => api as unknown as ReturnType<typeof fakeApi>;
const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
const posts = (api: FakeWebhookApi, path: string) => api.calls.filter((c) => c.method === 'POST' && c.url.endsWith(path));

describe('the form checks', () => {
  it('asks for a URL, an http(s) address, at least one event type, and valid, unreserved header names', () => {
    expect(checkEndpointForm(emptyEndpointForm())).toEqual({ url: [MESSAGES.required], event_types: [WEBHOOK_MESSAGES.eventTypes] });
    const values = {
      ...emptyEndpointForm(),
      url: 'crm.example.com',
      eventTypes: ['message.sent'],
      headers: [
        { name: 'X-Token', value: 'abc' },
        { name: 'Webhook-Id', value: 'x' },
        { name: 'bad name', value: 'x' },
        { name: '', value: '' },
      ],
    };
    expect(checkEndpointForm(values)).toEqual({
      url: [WEBHOOK_MESSAGES.url],
      'headers.1': [WEBHOOK_MESSAGES.headerReserved],
      'headers.2': [WEBHOOK_MESSAGES.headerName],
    });
    expect(checkEndpointForm({ ...values, url: 'https://crm.example.com/h', headers: [values.headers[0]] })).toEqual({});
  });

  it('sends "all events" alone, drops empty header rows, and keeps a masked value as it came', () => {
    const input = endpointInputOf({
      ...emptyEndpointForm(),
      url: ' https://crm.example.com/h ',
      eventTypes: ['message.sent', '*'],
      headers: [
        { name: 'Authorization', value: HEADER_VALUE_MASK },
        { name: ' ', value: '' },
      ],
    });
    expect(input).toEqual({
      url: 'https://crm.example.com/h',
      description: null,
      event_types: ['*'],
      headers: { Authorization: HEADER_VALUE_MASK },
      batch: false,
      enabled: true,
    });
  });
});

describe('Webhooks screen', () => {
  it('is a tab beside the domains and lists each endpoint with its types and state', async () => {
    renderApp(asApi(fakeWebhookApi()), { path: '/webhook', signedIn: true });
    expect((await find('section-tab-webhooks')).textContent).toBe('Webhooks');
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(2), { timeout: 3000 });
    const [active, gone] = screen.getAllByTestId('list-row');
    expect(active.querySelector('[data-column="url"]')?.textContent).toBe('https://crm.example.com/hooks');
    expect(active.querySelector('[data-column="types"]')?.textContent).toBe('Event types: 2');
    expect(within(active).getByTestId('endpoint-state').textContent).toBe('Active');
    expect(gone.querySelector('[data-column="types"]')?.textContent).toBe('All events');
    expect(within(gone).getByTestId('endpoint-state').textContent).toBe('Disabled: gone');
  });

  it('refuses an empty form in the browser, shows the API 422 under the URL, then shows the secret once', async () => {
    const api = fakeWebhookApi();
    renderApp(asApi(api), { path: '/webhook', signedIn: true });
    fireEvent.click(await find('webhook-add'));
    fireEvent.click(await find('webhook-form-submit'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect((await find('webhook-event-types-error')).textContent).toBe(WEBHOOK_MESSAGES.eventTypes);
    expect(posts(api, '/webhooks')).toHaveLength(0);

    fireEvent.change(await find('webhook-url'), { target: { value: 'https://10.0.0.1/hook' } });
    fireEvent.click(await find('webhook-type-message.sent'));
    fireEvent.click(await find('webhook-form-submit'));
    expect(await screen.findByText(WEBHOOK_MESSAGES.url)).toBeTruthy();
    expect(screen.queryByTestId('webhook-secret')).toBeNull();

    fireEvent.change(await find('webhook-url'), { target: { value: 'https://crm2.example.com/hook' } });
    fireEvent.click(await find('webhook-form-submit'));
    expect((await find('webhook-secret')).textContent).toBe('whsec_first1');
    expect(screen.getByText('Copy this secret now: it is shown only once.')).toBeTruthy();
    expect(posts(api, '/webhooks').at(-1)!.body).toMatchObject({
      url: 'https://crm2.example.com/hook',
      event_types: ['message.sent'],
      enabled: true,
      batch: false,
    });

    // Closed, it is gone: nothing on the page shows it again.
    fireEvent.click(await find('webhook-secret-done'));
    await waitFor(() => expect(screen.queryByText('whsec_first1')).toBeNull());
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(3), { timeout: 3000 });
    expect(document.body.textContent).not.toContain('whsec_first1');
  });

  it('rotates a secret only after confirming, then shows the new one once', async () => {
    const api = fakeWebhookApi();
    renderApp(asApi(api), { path: '/webhook', signedIn: true });
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(2), { timeout: 3000 });
    fireEvent.click(within(screen.getAllByTestId('list-row')[0]).getByTestId('webhook-actions'));
    fireEvent.click(await find('webhook-rotate'));
    fireEvent.click(await find('confirm-cancel'));
    expect(posts(api, '/webhooks/1/rotate-secret')).toHaveLength(0);

    fireEvent.click(within(screen.getAllByTestId('list-row')[0]).getByTestId('webhook-actions'));
    fireEvent.click(await find('webhook-rotate'));
    fireEvent.click(await find('confirm-ok'));
    expect((await find('webhook-secret')).textContent).toBe('whsec_rotated1');
    expect(posts(api, '/webhooks/1/rotate-secret')).toHaveLength(1);
  });
});
