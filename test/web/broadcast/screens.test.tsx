import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// The broadcast and message screens in the whole console against a fake API: the form's live recipient count
// gating submit, the Schedule button, and a message's html shown in a sandbox where no script runs.

const NOW = '2026-11-01T10:00:00.000Z';
const list = (items: unknown[]) => json(200, { items, meta: { total: items.length, page: 1, page_size: 100, total_pages: 1 } });

function broadcastsApi(options: { matching: number }) {
  const base = fakeApi();
  const previews: unknown[] = [];
  const handle = (call: FetchCall): Response | null => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/sender')
      return list([
        { id: 1, type: 'email', value: 'hello@acme.test', name: 'Acme' },
        { id: 2, type: 'phone', value: '+15005550006', name: null },
      ]);
    if (path === '/template')
      return list([
        { id: 3, type: 'email', name: 'News' },
        { id: 4, type: 'text', name: 'SMS text' },
      ]);
    if (path === '/subscription' || path === '/field') return list([]);
    if (path === '/broadcast/preview') {
      previews.push(call.body);
      return json(200, {
        data: {
          total: options.matching,
          skipped: 0,
          sample: options.matching ? [{ id: 9, name: 'Ann', address: 'ann@example.com', skipped_reason: null }] : [],
        },
      });
    }
    if (path === '/message/5')
      return json(200, {
        data: {
          id: 5,
          type: 'email',
          status: 'sent',
          to_address: 'ann@example.com',
          from_address: 'hello@acme.test',
          from_name: 'Acme',
          subject: 'Hi Ann',
          html: true,
          body: '<p>Hi Ann</p><script>window.ran = true</script>',
          body_plain: null,
          opens_total: 0,
          opens_unique: 0,
          clicks_total: 0,
          clicks_unique: 0,
          attempts: 1,
          created_at: NOW,
          updated_at: NOW,
          broadcast_id: 1,
          contact_id: 9,
          external_id: 'relay-5@acme.test',
          error: null,
          sent_at: NOW,
          clicked_at: null,
          delayed_at: null,
          is_test: false,
          sender_id: 1,
          template_id: 3,
        },
      });
    return null;
  };
  const mock = mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  return { ...mock, previews } as unknown as ReturnType<typeof fakeApi> & { previews: unknown[] };
}

describe('broadcast form', () => {
  it('keeps submit disabled while no contact matches, and reads Schedule when not immediate', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/broadcast/create', signedIn: true });
    const submit = await screen.findByTestId('form-submit', undefined, { timeout: 3000 });
    await waitFor(() => expect(screen.getByTestId('recipients-total').getAttribute('data-total')).toBe('0'), { timeout: 3000 });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    expect(submit.textContent).toBe('Create');
    fireEvent.click(screen.getByTestId('form-field-immediate'));
    expect(await screen.findByTestId('form-field-delayed_at')).toBeTruthy();
    expect(screen.getByTestId('form-submit').textContent).toBe('Schedule');
    // do_not_unsubscribe hides the subscription choice.
    expect(screen.getByTestId('form-field-subscription_id')).toBeTruthy();
    fireEvent.click(screen.getByTestId('form-field-do_not_unsubscribe'));
    await waitFor(() => expect(screen.queryByTestId('form-field-subscription_id')).toBeNull());
  });

  it('enables submit once the preview counts recipients, and shows a sample', async () => {
    const api = broadcastsApi({ matching: 3 });
    renderApp(api, { path: '/broadcast/create', signedIn: true });
    await waitFor(() => expect(screen.getByTestId('recipients-total').getAttribute('data-total')).toBe('3'), { timeout: 3000 });
    expect(screen.getByTestId('recipients-sample').textContent).toContain('ann@example.com');
    expect((screen.getByTestId('form-submit') as HTMLButtonElement).disabled).toBe(false);
    expect((api as unknown as { previews: unknown[] }).previews[0]).toMatchObject({ type: 'email', contacts: { filter: { skip_unsubscribed: true } } });
  });
});

describe('message view', () => {
  it('shows an html message in a sandboxed frame: no script runs', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/message/view/5', signedIn: true });
    fireEvent.click(await screen.findByTestId('tab-content', undefined, { timeout: 3000 }));
    const frame = await screen.findByTestId('message-body-html');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('<p>Hi Ann</p>');
    expect((window as unknown as { ran?: boolean }).ran).toBeUndefined();
  });
});
