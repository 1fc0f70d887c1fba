import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@shared/messages';
import { MERGING_POLL_MS } from '../../web/src/features/integration/api';
import type { fakeApi } from './fake-api';
import { json } from './helpers';
import { renderApp } from './render-app';
import { fakeChannelsApi, HTML_TEMPLATE, SENDERS } from './fake-channels-api';

// The channel screens rendered in the whole console against a fake API: the integration list's sync action and
// the template form's type change.

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
const asApi = (api: ReturnType<typeof fakeChannelsApi>) => api as unknown as ReturnType<typeof fakeApi>;
const rowOf = async (name: string) => {
  await waitFor(() => expect(screen.getAllByTestId('list-row').some((row) => row.textContent?.includes(name))).toBe(true), { timeout: 3000 });
  return screen.getAllByTestId('list-row').find((row) => row.textContent?.includes(name))!;
};
const statusOf = (row: HTMLElement) => row.querySelector('[data-status]')?.getAttribute('data-status');

describe('integration list', () => {
  it('offers credentials on every row and sync only on twilio rows', async () => {
    renderApp(asApi(fakeChannelsApi()), { path: '/integration', signedIn: true });
    const smtp = await rowOf('Office mail');
    const twilio = await rowOf('Phones');
    expect(within(smtp).queryByTestId('row-credentials')?.getAttribute('href')).toBe('/integration/update/1/credentials');
    expect(within(smtp).queryByTestId('row-sync')).toBeNull();
    expect(within(twilio).getByTestId('row-sync')).toBeTruthy();
    // Loaded whole: no page size choice.
    expect(screen.queryByTestId('list-page-size')).toBeNull();
  });

  it('asks first, disables sync while asking, shows merging from the answer, refetches until active again', async () => {
    const api = fakeChannelsApi();
    renderApp(asApi(api), { path: '/integration', signedIn: true });
    const before = api.calls.length;
    fireEvent.click(within(await rowOf('Phones')).getByTestId('row-sync'));
    // Nothing is sent before the confirmation.
    expect(api.calls.slice(before).some((c) => c.url.endsWith('/sync'))).toBe(false);
    const release = api.hold((call) => call.url.endsWith('/sync'));
    fireEvent.click(await find('confirm-ok'));

    // Sync is disabled at once, while the server has not answered yet.
    await waitFor(async () =>
      expect(
        within(await rowOf('Phones'))
          .getByTestId('row-sync')
          .hasAttribute('disabled'),
      ).toBe(true),
    );
    release();
    await waitFor(() => expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes('Sync of "Phones" started'))).toBe(true));
    // The answer's row (merging) replaces the old one; sync stays disabled while it merges.
    await waitFor(async () => expect(statusOf(await rowOf('Phones'))).toBe('merging'));
    expect(
      within(await rowOf('Phones'))
        .getByTestId('row-sync')
        .hasAttribute('disabled'),
    ).toBe(true);
    expect(api.calls.filter((c) => c.url.endsWith('/integration/2/sync') && c.method === 'POST')).toHaveLength(1);

    // The server finishes the sync: the list, polling while merging, shows the row active again.
    const listCallsBefore = api.calls.filter((c) => c.method === 'GET' && /\/integration\?/.test(c.url)).length;
    api.integrations[1].status = 'active';
    await waitFor(async () => expect(statusOf(await rowOf('Phones'))).toBe('active'), { timeout: MERGING_POLL_MS * 3 });
    expect(api.calls.filter((c) => c.method === 'GET' && /\/integration\?/.test(c.url)).length).toBeGreaterThan(listCallsBefore);
    expect(
      within(await rowOf('Phones'))
        .getByTestId('row-sync')
        .hasAttribute('disabled'),
    ).toBe(false);
  }, 15_000);
});

describe('integration form', () => {
  it('shows who signs with DKIM for smtp (Relay by default) and saves "My provider signs" as dkim_signing false', async () => {
    const api = fakeChannelsApi();
    renderApp(asApi(api), { path: '/integration/update/1', signedIn: true });
    const choice = (await find('form-field-dkim_signing')) as HTMLInputElement;
    await waitFor(() => expect(choice.value).toBe("Relay signs with the domain's DKIM key"));
    fireEvent.click(choice);
    fireEvent.click(await screen.findByRole('option', { name: 'My provider signs', hidden: true }));
    fireEvent.click(await find('form-submit'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT' && c.url.endsWith('/integration/1'))).toBe(true));
    const saved = api.calls.find((c) => c.method === 'PUT' && c.url.endsWith('/integration/1'))!;
    expect(saved.body).toMatchObject({ dkim_signing: false, details: { server: 'smtp.example.com' } });
  });

  it('has no DKIM choice for twilio', async () => {
    renderApp(asApi(fakeChannelsApi()), { path: '/integration/update/2', signedIn: true });
    await find('form-field-should_merge');
    expect(screen.queryByTestId('form-field-dkim_signing')).toBeNull();
  });
});

describe('template form', () => {
  it('clears body, subject and plain text when the type changes during creation', async () => {
    const api = fakeChannelsApi();
    renderApp(asApi(api), { path: '/template/create', signedIn: true });
    // Email: subject and plain text exist.
    fireEvent.click(await find('form-field-type'));
    fireEvent.click(await screen.findByRole('option', { name: 'Email', hidden: true }));
    fireEvent.change(await find('form-field-subject'), { target: { value: 'Hi {{ contact.name }}' } });
    fireEvent.change(await find('form-field-body_plain'), { target: { value: 'Hello' } });
    fireEvent.click(await find('rte-source'));
    fireEvent.change(await find('form-field-body-source'), { target: { value: '<p>Hello</p>' } });
    expect((screen.getByTestId('form-field-body-source') as HTMLTextAreaElement).value).toBe('<p>Hello</p>');
    expect((screen.getByTestId('form-field-subject') as HTMLInputElement).value).toBe('Hi {{ contact.name }}');

    // Text: the body becomes a plain text area, empty; subject and plain text are gone.
    fireEvent.click(await find('form-field-type'));
    fireEvent.click(await screen.findByRole('option', { name: 'Text', hidden: true }));
    await waitFor(() => expect(screen.queryByTestId('form-field-subject')).toBeNull());
    expect(screen.queryByTestId('form-field-body_plain')).toBeNull();
    expect((screen.getByTestId('form-field-body') as HTMLTextAreaElement).value).toBe('');

    // Back to email: still empty.
    fireEvent.click(await find('form-field-type'));
    fireEvent.click(await screen.findByRole('option', { name: 'Email', hidden: true }));
    expect(((await find('form-field-subject')) as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('form-field-body_plain') as HTMLTextAreaElement).value).toBe('');

    // The form is 600 wide for text, 1600 for html and email (spec 9; Mantine writes px as rem: 1600 / 16).
    expect(screen.getByTestId('entity-form').getAttribute('style')).toContain('max-width: calc(100rem');
  });

  it('creates a text template with the body as typed and no subject', async () => {
    const api = fakeChannelsApi();
    renderApp(asApi(api), { path: '/template/create', signedIn: true });
    fireEvent.click(await find('form-field-type'));
    fireEvent.click(await screen.findByRole('option', { name: 'Text', hidden: true }));
    fireEvent.change(await find('form-field-name'), { target: { value: 'Code' } });
    fireEvent.change(await find('form-field-body'), { target: { value: 'Your code: {{ contact.fields.code }}' } });
    expect(screen.getByTestId('entity-form').getAttribute('style')).toContain('max-width: calc(37.5rem'); // 600 px
    await act(async () => fireEvent.click(await find('form-submit')));
    await waitFor(() => expect(api.templates).toHaveLength(1));
    const sent = api.calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/v1/template'))!;
    expect(sent.body).toEqual({
      type: 'text',
      name: 'Code',
      alias: null,
      note: null,
      subject: null,
      body: 'Your code: {{ contact.fields.code }}',
      body_plain: null,
    });
  });
});

describe('campaign form', () => {
  const pick = async (testId: string, option: string) => {
    fireEvent.click(await find(testId));
    fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
  };

  it('offers only senders that fit the chosen template, and shows server messages on the entry', async () => {
    const mismatch = 'Choose an email sender for this one';
    const api = fakeChannelsApi({
      templates: [HTML_TEMPLATE],
      senders: SENDERS,
      campaignAnswer: () =>
        json(422, {
          error: {
            code: 'validation_failed',
            message: MESSAGES.invalidForm,
            fields: { 'settings.0.sender_id': [mismatch], 'settings.0.to_address': [MESSAGES.invalidEmail] },
          },
        }),
    });
    renderApp(asApi(api), { path: '/campaign/create', signedIn: true });
    fireEvent.change(await find('form-field-name'), { target: { value: 'Spring' } });
    await pick('setting-template-0', 'Welcome (html)');
    fireEvent.click(await find('setting-sender-0'));
    await screen.findByRole('option', { name: 'News <news@acme.test>', hidden: true });
    expect(screen.queryByRole('option', { name: '+15005550006', hidden: true })).toBeNull(); // html goes by email only
    fireEvent.click(screen.getByRole('option', { name: 'News <news@acme.test>', hidden: true }));
    fireEvent.change(await find('setting-to-0'), { target: { value: 'grace@example.com' } });

    await act(async () => fireEvent.click(await find('form-submit')));
    const sent = await waitFor(() => api.calls.find((c) => c.method === 'POST' && c.url.endsWith('/api/v1/campaign'))!);
    expect(sent.body).toEqual({ name: 'Spring', alias: null, note: null, settings: [{ template_id: 5, sender_id: 10, to_address: 'grace@example.com' }] });
    const entry = (await screen.findAllByTestId('setting-row'))[0];
    await waitFor(() => expect(entry.textContent).toContain(mismatch));
    expect(entry.textContent).toContain(MESSAGES.invalidEmail);
    expect((await find('form-error')).textContent).toContain(MESSAGES.invalidForm);

    // Editing the entry clears its messages.
    fireEvent.change(within(entry).getByTestId('setting-to-0'), { target: { value: '' } });
    await waitFor(() => expect(entry.textContent).not.toContain(mismatch));
  });

  it('asks for at least one entry and for template and sender, without sending', async () => {
    const api = fakeChannelsApi();
    renderApp(asApi(api), { path: '/campaign/create', signedIn: true });
    fireEvent.change(await find('form-field-name'), { target: { value: 'Spring' } });
    fireEvent.click(await find('form-submit'));
    const entry = (await screen.findAllByTestId('setting-row'))[0];
    await waitFor(() => expect(within(entry).getAllByText(MESSAGES.required)).toHaveLength(2));
    fireEvent.click(within(entry).getByTestId('setting-remove-0'));
    fireEvent.click(await find('form-submit'));
    await screen.findByText(MESSAGES.requiredList);
    expect(api.calls.some((c) => c.method === 'POST' && c.url.endsWith('/campaign'))).toBe(false);
  });

  it('keeps the messages of a quick submit when the selects’ first searches answer after it', async () => {
    // A quick person (or a busy machine) submits before the template and sender searches the entry started on
    // opening have answered: those answers come from requests sent before the messages, so they must not clear them.
    const api = fakeChannelsApi({ templates: [HTML_TEMPLATE], senders: SENDERS });
    const release = api.hold((call) => call.method === 'GET' && /\/api\/v1\/(template|sender)(\?|$)/.test(call.url));
    renderApp(asApi(api), { path: '/campaign/create', signedIn: true });
    fireEvent.change(await find('form-field-name'), { target: { value: 'Spring' } });
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'GET' && /\/api\/v1\/(template|sender)\?/.test(c.url)).length).toBeGreaterThan(1));
    fireEvent.click(await find('form-submit'));
    const entry = (await screen.findAllByTestId('setting-row'))[0];
    await waitFor(() => expect(within(entry).getAllByText(MESSAGES.required)).toHaveLength(2));
    await act(async () => {
      release();
      await new Promise((r) => setTimeout(r, 50));
    });
    await waitFor(() => expect(api.calls.filter((c) => /\/api\/v1\/(template|sender)\?/.test(c.url)).length).toBeGreaterThan(1));
    expect(within(entry).getAllByText(MESSAGES.required)).toHaveLength(2);
    expect(await find('form-error')).toBeTruthy();
  });
});
