import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DOMAIN_MESSAGES } from '@shared/contracts/domain';
import { MESSAGES } from '@shared/messages';
import { beforeAll, describe, expect, it } from 'vitest';
import type { fakeApi } from '../fake-api';
import { renderApp } from '../render-app';
import { type BROKEN, DKIM_STRINGS, DKIM_VALUE, fakeDomainApi } from './fake-domain-api';

// The Domains screen (issue 37) against a fake API that follows the shared contract: the list with its statuses, a
// broken domain flagged, "Add domain" with the API's 422, a domain's records with their copy buttons and checks,
// Check now, key rotation; and the senders' domain state on the senders screen and the broadcast form.

// Each page is a lazy chunk: loaded once before the tests so the first one does not pay the transform in its budget.
beforeAll(async () => {
  await Promise.all([
    import('../../../web/src/features/domain/DomainListPage'),
    import('../../../web/src/features/domain/DomainViewPage'),
    import('../../../web/src/features/sender/SenderListPage'),
    import('../../../web/src/features/broadcast/BroadcastFormPage'),
  ]);
});

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
const asApi = (api: ReturnType<typeof fakeDomainApi>) => api as unknown as ReturnType<typeof fakeApi>;
const rowOf = async (id: number) => {
  await waitFor(() => expect(screen.getAllByTestId('list-row').length).toBeGreaterThan(0), { timeout: 3000 });
  return screen.getAllByTestId('list-row').find((row) => row.getAttribute('data-id') === String(id))!;
};
const cell = (row: HTMLElement, column: string) => row.querySelector(`[data-column="${column}"]`)?.textContent;

describe('Domains list', () => {
  it('is in the main navigation and lists each domain with its status, last check and senders; a broken one is flagged', async () => {
    renderApp(asApi(fakeDomainApi()), { path: '/domain', signedIn: true });
    expect((await find('nav-domains')).getAttribute('href')).toBe('/domain');
    expect((await find('section-tab-domains')).textContent).toBe('Domains');
    const verified = await rowOf(1);
    expect(cell(verified, 'domain')).toBe('acme.test');
    expect(cell(verified, 'status')).toBe('Verified');
    expect(cell(verified, 'senders')).toBe('2');
    expect(cell(verified, 'checked_at')).not.toBe('Not yet');
    expect(verified.getAttribute('data-broken')).toBe('false');
    const broken = await rowOf(2);
    expect(cell(broken, 'status')).toBe('Broken');
    expect(broken.getAttribute('data-broken')).toBe('true');
    expect(within(broken).getByText('news.example.co.uk').getAttribute('href')).toBe('/domain/view/2');
  });

  it('shows one card per domain on a phone', async () => {
    const happy = (window as unknown as { happyDOM: { setViewport: (v: { width: number; height: number }) => void } }).happyDOM;
    happy.setViewport({ width: 390, height: 844 });
    try {
      renderApp(asApi(fakeDomainApi()), { path: '/domain', signedIn: true });
      expect(await find('domain-cards')).toBeTruthy();
      expect(screen.queryByTestId('list-table')).toBeNull();
      expect(cell(await rowOf(2), 'status')).toBe('Broken');
    } finally {
      happy.setViewport({ width: 1024, height: 768 });
    }
  });

  it('says so when there is no domain yet', async () => {
    renderApp(asApi(fakeDomainApi({ domains: [] })), { path: '/domain', signedIn: true });
    expect((await find('list-empty')).textContent).toBe('No sending domains yet.');
  });

  it("adds a domain: the API's 422 shows under the field, in the user's words; once added, its records open", async () => {
    const api = fakeDomainApi();
    renderApp(asApi(api), { path: '/domain', signedIn: true });
    fireEvent.click(await find('domain-add'));
    fireEvent.change(await find('domain-add-name'), { target: { value: 'taken.test' } });
    await act(async () => fireEvent.click(screen.getByTestId('domain-add-submit')));
    expect(await screen.findByText(DOMAIN_MESSAGES.taken)).toBeTruthy();
    expect(screen.queryByTestId('domain-add-error')).toBeNull();
    // Editing the field clears its message.
    fireEvent.change(screen.getByTestId('domain-add-name'), { target: { value: 'not a domain' } });
    await waitFor(() => expect(screen.queryByText(DOMAIN_MESSAGES.taken)).toBeNull());
    await act(async () => fireEvent.click(screen.getByTestId('domain-add-submit')));
    expect(await screen.findByText(DOMAIN_MESSAGES.domain)).toBeTruthy();

    fireEvent.change(screen.getByTestId('domain-add-name'), { target: { value: '  Mail.Shop.test ' } });
    await act(async () => fireEvent.click(screen.getByTestId('domain-add-submit')));
    expect((await find('domain-name')).textContent).toBe('mail.shop.test');
    expect(window.location.pathname).toBe('/domain/view/50');
    expect(screen.getByTestId('domain-detail').getAttribute('data-status')).toBe('pending');
    const posts = api.calls.filter((c) => c.method === 'POST' && c.url.endsWith('/api/v1/domain')).map((c) => c.body);
    expect(posts).toEqual([{ domain: 'taken.test' }, { domain: 'not a domain' }, { domain: 'Mail.Shop.test' }]);
  });

  it('asks for a domain before sending anything', async () => {
    const api = fakeDomainApi();
    renderApp(asApi(api), { path: '/domain', signedIn: true });
    fireEvent.click(await find('domain-add'));
    await act(async () => fireEvent.click(await find('domain-add-submit')));
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

describe('a domain page', () => {
  it('shows each record with name, type, value, required or advised, and its status', async () => {
    renderApp(asApi(fakeDomainApi()), { path: '/domain/view/1', signedIn: true });
    const verification = await find('record-verification');
    expect(within(verification).getByTestId('record-copy-name-verification-text').textContent).toBe('_relay.acme.test');
    expect(within(verification).getByTestId('record-type').textContent).toBe('TXT');
    expect(within(verification).getByTestId('record-copy-value-verification-text').textContent).toBe('relay-verify=abc123');
    expect(within(verification).getByTestId('record-required').textContent).toBe('Required');
    expect(within(verification).getByTestId('record-status').textContent).toBe('OK');
    const dmarc = screen.getByTestId('record-dmarc');
    expect(within(dmarc).getByTestId('record-required').textContent).toBe('Advised');
    // Only a value longer than one DNS string gets the zone-file form.
    expect(within(verification).queryByTestId('record-copy-zone-verification')).toBeNull();
    // The relay is unknown: SPF is explained instead of given, and not yet checked.
    const spf = screen.getByTestId('record-spf');
    expect(within(spf).getByTestId('record-spf-unknown').textContent).toContain('Relay does not know which servers your mail relay sends from');
    expect(within(spf).queryByTestId('record-copy-value-spf')).toBeNull();
    expect(within(spf).getByTestId('record-status').textContent).toBe('Not yet checked');
    // Alignment: DKIM aligned, SPF not, p=none.
    expect(within(await find('alignment-dkim')).getByText('Aligned')).toBeTruthy();
    expect(within(screen.getByTestId('alignment-spf')).getByText('Not aligned')).toBeTruthy();
    expect(screen.getByTestId('alignment-policy').textContent).toContain('p=none');
  });

  it('copies the whole DKIM value, and the split strings quoted as a zone file takes them', async () => {
    renderApp(asApi(fakeDomainApi()), { path: '/domain/view/1', signedIn: true });
    const dkim = await find('record-dkim');
    expect(within(dkim).getByText(/2 quoted strings/)).toBeTruthy();
    fireEvent.click(within(dkim).getByTestId('record-copy-value-dkim'));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(DKIM_VALUE));
    fireEvent.click(within(dkim).getByTestId('record-copy-zone-dkim'));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe(`"${DKIM_STRINGS[0]}" "${DKIM_STRINGS[1]}"`));
    expect(DKIM_STRINGS[0].length).toBe(255);
    fireEvent.click(within(dkim).getByTestId('record-copy-name-dkim'));
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('relay1._domainkey.acme.test'));
  });

  it('flags a broken domain in red and says what each check found: wrong with what and why, missing, could not check', async () => {
    renderApp(asApi(fakeDomainApi()), { path: '/domain/view/2', signedIn: true });
    expect((await find('domain-broken')).textContent).toContain('A required record is missing or wrong');
    expect(screen.getByTestId('domain-detail').getAttribute('data-status')).toBe('broken');
    const dkim = screen.getByTestId('record-dkim');
    expect(dkim.getAttribute('data-status')).toBe('wrong');
    expect(within(dkim).getByTestId('record-status').textContent).toBe('Wrong');
    expect(within(dkim).getByTestId('record-check').textContent).toContain("The key published is not this domain's key.");
    expect(within(dkim).getByTestId('record-found').textContent).toBe('v=DKIM1; k=rsa; p=OLDKEY');
    const spf = screen.getByTestId('record-spf');
    expect(within(spf).getByTestId('record-status').textContent).toBe('Missing');
    expect(within(spf).getByTestId('record-check').textContent).toBe('No such record was found at this name.');
    const dmarc = screen.getByTestId('record-dmarc');
    // A timeout is "could not check", never ok.
    expect(within(dmarc).getByTestId('record-status').textContent).toBe('Could not check');
    expect(within(dmarc).getByTestId('record-check').textContent).toContain('the DNS answer took longer than 5 seconds');
    expect(within(screen.getByTestId('alignment-dkim')).getByText('Not signing')).toBeTruthy();
    expect(screen.getByTestId('alignment-policy').textContent).toContain('No DMARC record');
  });

  it('Check now asks the API and shows the answered row', async () => {
    const fixed = (row: typeof BROKEN) => ({
      ...row,
      status: 'verified' as const,
      broken_since: null,
      records: row.records.map((r) => ({ ...r, status: 'ok' as const, found: undefined, problem: undefined, reason: undefined })),
    });
    const api = fakeDomainApi({ afterCheck: fixed });
    renderApp(asApi(api), { path: '/domain/view/2', signedIn: true });
    expect(await find('domain-broken')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('domain-check')));
    await waitFor(() => expect(screen.getByTestId('domain-detail').getAttribute('data-status')).toBe('verified'));
    expect(screen.queryByTestId('domain-broken')).toBeNull();
    expect(within(screen.getByTestId('record-dkim')).getByTestId('record-status').textContent).toBe('OK');
    expect(api.calls.filter((c) => c.method === 'POST' && c.url.endsWith('/domain/2/check'))).toHaveLength(1);
  });

  it('rotates the DKIM key after confirmation and shows the new record to publish while the rotation is under way', async () => {
    const api = fakeDomainApi();
    renderApp(asApi(api), { path: '/domain/view/1', signedIn: true });
    fireEvent.click(await find('domain-rotate'));
    await act(async () => fireEvent.click(await find('confirm-ok')));
    const next = await find('record-dkim_next');
    expect(within(next).getByText('New DKIM key (rotation)')).toBeTruthy();
    expect(within(next).getByTestId('record-copy-name-dkim_next-text').textContent).toBe('relay2._domainkey.acme.test');
    expect(screen.getByTestId('domain-rotating').textContent).toContain('selector relay2');
    expect((screen.getByTestId('domain-rotate') as HTMLButtonElement).disabled).toBe(true);
    expect(api.calls.filter((c) => c.method === 'POST' && c.url.endsWith('/domain/1/rotate-key'))).toHaveLength(1);
  });

  it('deletes only after confirmation, then goes back to the list', async () => {
    const api = fakeDomainApi();
    renderApp(asApi(api), { path: '/domain/view/1', signedIn: true });
    fireEvent.click(await find('domain-delete'));
    fireEvent.click(await find('confirm-cancel'));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('domain-delete'));
    await act(async () => fireEvent.click(await find('confirm-ok')));
    await waitFor(() => expect(window.location.pathname).toBe('/domain'));
    expect(api.calls.filter((c) => c.method === 'DELETE' && c.url.endsWith('/domain/1'))).toHaveLength(1);
    expect(api.domains().map((d) => d.id)).toEqual([2]);
  });

  it('shows the domain in German', async () => {
    renderApp(asApi(fakeDomainApi()), { path: '/domain/view/2', signedIn: true });
    await find('record-dkim');
    fireEvent.change(await find('language-switcher'), { target: { value: 'de' } });
    await waitFor(() => expect(screen.getByTestId('domain-check').textContent).toBe('Jetzt prüfen'));
    expect(within(screen.getByTestId('record-dmarc')).getByTestId('record-status').textContent).toBe('Nicht prüfbar');
    expect(within(screen.getByTestId('record-dkim')).getByTestId('record-check').textContent).toContain('nicht der Schlüssel dieser Domain');
  });
});

describe("senders' domains", () => {
  it('marks each email sender with its domain state on the senders screen, nothing for SMS', async () => {
    renderApp(asApi(fakeDomainApi()), { path: '/sender', signedIn: true });
    await waitFor(() => expect(screen.getAllByTestId('sender-domain-state')).toHaveLength(3), { timeout: 3000 });
    const states = screen.getAllByTestId('sender-domain-state').map((badge) => [badge.getAttribute('data-state'), badge.textContent]);
    expect(states).toEqual([
      ['verified', 'Verified domain'],
      ['unverified', 'Unverified domain'],
      ['broken', 'Broken domain'],
    ]);
  });

  it.each([
    [2, 'unverified', DOMAIN_MESSAGES.unverifiedSender],
    [3, 'broken', DOMAIN_MESSAGES.brokenSender],
  ])('warns in the broadcast form when the chosen sender (%i) is on a %s domain, with a link to Domains', async (_id, state, message) => {
    renderApp(asApi(fakeDomainApi()), { path: '/broadcast/create', signedIn: true });
    const label = state === 'broken' ? 'List <list@news.example.co.uk>' : 'Other <news@other.test>';
    fireEvent.click(await find('form-field-sender_id'));
    fireEvent.click(await screen.findByRole('option', { name: label, hidden: true }));
    const warning = await find('sender-domain-warning');
    expect(warning.getAttribute('data-state')).toBe(state);
    expect(warning.textContent).toContain(message);
    expect(within(warning).getByTestId('sender-domain-link').getAttribute('href')).toBe('/domain');
    // A warning, not a refusal: the form's submit is gated by the recipients only, as before.
    fireEvent.click(screen.getByTestId('form-field-sender_id'));
    fireEvent.click(await screen.findByRole('option', { name: 'Acme <hello@acme.test>', hidden: true }));
    await waitFor(() => expect(screen.queryByTestId('sender-domain-warning')).toBeNull());
  });
});
