import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Form, FORM_MESSAGES } from '@shared/contracts/form';
import { MESSAGES } from '@shared/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import { formEditorInput, formEditorValues } from '../../../web/src/features/form/form-values';
import { fakeApi } from '../fake-api';
import { type FetchCall, json, mockFetch } from '../helpers';
import { renderApp } from '../render-app';

// The Forms screen (issue 39) against an in-memory /form that follows the shared contract: the list, the editor's
// values and request body, the API's 422 on its field, and a saved form's hosted link and embed snippet.

beforeAll(async () => {
  await import('../../../web/src/features/form/FormListPage');
  await import('../../../web/src/features/form/FormFormPage');
});

const NOW = '2026-11-01T10:00:00.000Z';
const FORM: Form = {
  id: 1,
  public_key: 'AbC123',
  name: 'Newsletter sign-up',
  subscription_ids: [3, 4],
  fields: [{ kind: 'email', required: true }],
  double_opt_in: true,
  success_message: null,
  redirect_url: null,
  allowed_origins: ['https://www.acme.test'],
  sender_id: null,
  template_id: null,
  enabled: true,
  url: 'http://acme.localhost:8787/f/AbC123',
  signups: { pending: 2, confirmed: 5 },
  created_at: NOW,
  updated_at: NOW,
};
const page = (items: unknown[]) => json(200, { items, meta: { total: items.length, page: 1, page_size: 100, total_pages: 1 } });

function fakeFormApi() {
  const base = fakeApi();
  const forms = [structuredClone(FORM)];
  const handle = (call: FetchCall): Response | null => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/form' && call.method === 'GET') return page(forms);
    if (path === '/subscription' && call.method === 'GET')
      return page([
        { id: 3, name: 'News', priority: 1, created_at: NOW, updated_at: NOW },
        { id: 4, name: 'Offers', priority: 2, created_at: NOW, updated_at: NOW },
      ]);
    if (['/field', '/sender', '/template'].includes(path) && call.method === 'GET') return page([]);
    const one = /^\/form\/(\d+)$/.exec(path);
    if (one && call.method === 'GET') return json(200, { data: forms[0] });
    if (one && call.method === 'PUT') {
      const body = call.body as { allowed_origins: string[] };
      if (body.allowed_origins.some((o) => !o.startsWith('https://')))
        return json(422, { error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields: { allowed_origins: [FORM_MESSAGES.origin] } } });
      Object.assign(forms[0], body);
      return json(200, { data: forms[0] });
    }
    return null;
  };
  const mock = mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  return mock;
}

const asApi = (api: ReturnType<typeof fakeFormApi>) => api as unknown as ReturnType<typeof fakeApi>;
const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });

describe('the editor values', () => {
  it('starts a new form with the email asked, double opt-in on, enabled and a message after sign-up', () => {
    expect(formEditorValues(null)).toMatchObject({ fields: [{ kind: 'email', required: true }], double_opt_in: true, enabled: true, after_signup: 'message' });
  });

  it('sends ids as numbers, origins one a line, the email first, and only the chosen after-sign-up', () => {
    const values = {
      ...formEditorValues(null),
      name: 'Sign up',
      subscription_ids: ['3', '4'],
      fields: [{ kind: 'name', required: true }],
      after_signup: 'redirect',
      success_message: 'Thanks',
      redirect_url: ' https://www.acme.test/thanks ',
      sender_id: '9',
      allowed_origins: 'https://www.acme.test\n\n  http://localhost:8787  \n',
    };
    expect(formEditorInput(values)).toEqual({
      name: 'Sign up',
      subscription_ids: [3, 4],
      fields: [
        { kind: 'email', required: true },
        { kind: 'name', required: true },
      ],
      double_opt_in: true,
      success_message: null,
      redirect_url: 'https://www.acme.test/thanks',
      sender_id: 9,
      template_id: null,
      allowed_origins: ['https://www.acme.test', 'http://localhost:8787'],
      enabled: true,
    });
    expect(formEditorInput({ ...values, after_signup: 'message' })).toMatchObject({ success_message: 'Thanks', redirect_url: null });
  });
});

describe('Forms screen', () => {
  it('is a tab beside Subscriptions and lists each form with its subscriptions, sign-ups and hosted link', async () => {
    renderApp(asApi(fakeFormApi()), { path: '/form', signedIn: true });
    expect((await find('section-tab-forms')).textContent).toBe('Forms');
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(1), { timeout: 3000 });
    const row = screen.getAllByTestId('list-row')[0];
    expect(row.querySelector('[data-column="name"]')?.textContent).toBe('Newsletter sign-up');
    await waitFor(() => expect(row.querySelector('[data-column="subscription_ids"]')?.textContent).toBe('News, Offers'));
    expect(within(row).getByTestId('form-signups').textContent).toBe('2 / 5');
    expect(within(row).getByTestId('form-url').getAttribute('href')).toBe(FORM.url);
  });

  it('edits the fields, shows the API 422 under the origins, then saves; the snippet posts to the hosted link', async () => {
    const api = fakeFormApi();
    renderApp(asApi(api), { path: '/form/update/1', signedIn: true });
    expect((await find('form-hosted-link')).getAttribute('href')).toBe(FORM.url);
    await waitFor(() => expect((screen.getByTestId('form-embed-code').textContent ?? '').length).toBeGreaterThan(0), { timeout: 3000 });
    const code = screen.getByTestId('form-embed-code').textContent ?? '';
    expect(code).toContain(`<form method="post" action="${FORM.url}"`);
    expect(code).toContain('value="3" checked> News');
    expect(screen.getByTestId('form-embed-copy')).toBeTruthy();
    fireEvent.change(screen.getByTestId('form-embed-language'), { target: { value: 'de' } });
    await waitFor(() => expect(screen.getByTestId('form-embed-code').textContent).toContain('E-Mail-Adresse'));

    // The email is fixed; the name is added and made required.
    const [email] = screen.getAllByTestId('field-row');
    expect((within(email).getByTestId('field-required') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('field-add-name'));
    const nameRow = screen.getAllByTestId('field-row')[1];
    expect(nameRow.getAttribute('data-kind')).toBe('name');
    fireEvent.click(within(nameRow).getByTestId('field-required'));

    fireEvent.change(screen.getByTestId('form-field-allowed_origins'), { target: { value: 'ftp://www.acme.test' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    expect(await screen.findByText(FORM_MESSAGES.origin)).toBeTruthy();

    fireEvent.change(screen.getByTestId('form-field-allowed_origins'), { target: { value: 'https://www.acme.test\nhttps://shop.acme.test' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(api.calls.filter((c) => c.method === 'PUT').at(-1)!.body).toMatchObject({
      subscription_ids: [3, 4],
      fields: [
        { kind: 'email', required: true },
        { kind: 'name', required: true },
      ],
      double_opt_in: true,
      allowed_origins: ['https://www.acme.test', 'https://shop.acme.test'],
    });
  });

  it('opens a new form with the email only and double opt-in on, saying what it does', async () => {
    renderApp(asApi(fakeFormApi()), { path: '/form/create', signedIn: true });
    const fields = await find('form-field-fields');
    expect(
      within(fields)
        .getAllByTestId('field-row')
        .map((r) => r.getAttribute('data-kind')),
    ).toEqual(['email']);
    expect((screen.getByTestId('form-field-double_opt_in') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/only after opening the link in a confirmation email/)).toBeTruthy();
    expect(screen.queryByTestId('form-embed')).toBeNull();
  });
});
