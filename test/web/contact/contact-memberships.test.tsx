import type { Contact } from '@shared/contracts/contact';
import type { ContactMemberships, Membership } from '@shared/contracts/membership';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../web/src/components/common/DateTime';
import { CONTACT, FIELDS, fakeAudienceApi } from '../fake-audience-api';
import { json, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// Issue 39, "Consent recorded ... shown on the contact's page": the Subscriptions card lists every subscription with
// the contact's standing, confirms or unsubscribes one by PUT /contact/{id}/memberships (only that one; a pending
// sign-up only after a dialog), and shows each sign-up's consent. The PUT is mocked here to the contract's shape.

beforeAll(async () => {
  await import('../../../web/src/features/contact/ContactViewPage');
});

const NOW = '2026-11-01T10:00:00.000Z';
const SIGNED_UP = '2026-10-30T08:15:00.000Z';
const CONFIRMED = '2026-10-30T08:20:00.000Z';
const EXPIRES = '2099-11-06T08:15:00.000Z';
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1';
const HASH = 'a3f1c2d4e5b6978812345678900abcdefa3f1c2d4e5b6978812345678900abcd';
const ANN: Contact = { ...CONTACT, id: 9 };
const SUBSCRIPTIONS = ['News', 'Offers', 'Events', 'Tips', 'Jobs'].map((name, i) => ({ id: i + 1, name, priority: i + 1, created_at: NOW, updated_at: NOW }));

const member = (subscription_id: number, status: Membership['status'], source: Membership['source'], consent_id: number | null = null): Membership => ({
  subscription_id,
  subscription_name: SUBSCRIPTIONS[subscription_id - 1].name,
  contact_id: 9,
  status,
  source,
  consent_id,
  updated_at: source === 'implied' ? null : NOW,
});

/** A contact who signed up for News (confirmed) and Events (not yet), left Offers, and Tips the organisation added. */
const SIGNED_UP_ANN: ContactMemberships = {
  membership: 'explicit',
  memberships: [
    member(1, 'confirmed', 'form', 7),
    member(2, 'unsubscribed', 'unsubscribe'),
    member(3, 'pending', 'form', 8),
    member(4, 'confirmed', 'console'),
  ],
  consents: [
    {
      id: 8,
      form_id: 2,
      form_name: 'Events sign-up',
      subscription_ids: [3],
      signed_up_at: NOW,
      confirmed_at: null,
      confirm_user_agent: null,
      confirm_ip_hash: null,
      expires_at: EXPIRES,
    },
    {
      id: 7,
      form_id: 1,
      form_name: 'Website footer',
      subscription_ids: [1],
      signed_up_at: SIGNED_UP,
      confirmed_at: CONFIRMED,
      confirm_user_agent: UA,
      confirm_ip_hash: HASH,
      expires_at: null,
    },
  ],
};

/** The audience fake with /subscription and the contact's memberships; PUT applies its one membership and answers the result. */
function membershipsApi(initial: ContactMemberships, options: { refusePut?: boolean } = {}) {
  let state = structuredClone(initial);
  const api = fakeAudienceApi({
    fields: FIELDS,
    contacts: [ANN],
    answer: (call: FetchCall) => {
      const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
      if (path === '/subscription') return json(200, { items: SUBSCRIPTIONS, meta: { total: 5, page: 1, page_size: 100, total_pages: 1 } });
      if (path === '/message') return json(200, { items: [], meta: { total: 0, page: 1, page_size: 100, total_pages: 0 } });
      if (path === '/contact/9/unsubscribes') return json(200, { data: { unsubscribes: [], sms_opt_outs: [], suppressions: [] } });
      if (path === '/contact/9/memberships' && call.method === 'GET') return json(200, { data: state });
      if (path === '/contact/9/memberships' && call.method === 'PUT' && options.refusePut)
        return json(404, { error: { code: 'not_found', message: 'Not found' } });
      if (path === '/contact/9/memberships' && call.method === 'PUT') {
        const [{ subscription_id, status }] = (call.body as { memberships: { subscription_id: number; status: 'confirmed' | 'unsubscribed' }[] }).memberships;
        const others = state.memberships.filter((m) => m.subscription_id !== subscription_id);
        state = { ...state, memberships: [...others, member(subscription_id, status, 'console')].sort((a, b) => a.subscription_id - b.subscription_id) };
        return json(200, { data: state });
      }
      return null;
    },
  });
  return api;
}

const rows = () => screen.getAllByTestId('contact-subscription');
const row = (name: string) => rows().find((r) => r.textContent?.startsWith(name))!;
const standing = (name: string) => within(row(name)).getByTestId('subscription-standing').textContent;
const puts = (api: ReturnType<typeof membershipsApi>) => api.calls.filter((c) => c.method === 'PUT');

async function openCard(initial: ContactMemberships) {
  const api = membershipsApi(initial);
  renderApp(api, { path: '/contact/view/9', signedIn: true });
  await waitFor(() => expect(rows()).toHaveLength(5), { timeout: 3000 });
  return api;
}

describe("the contact's Subscriptions card", () => {
  it('shows every subscription with its standing, source and switch', async () => {
    await openCard(SIGNED_UP_ANN);
    expect(rows().map((r) => r.getAttribute('data-standing'))).toEqual(['confirmed', 'unsubscribed', 'pending', 'confirmed', 'none']);
    expect(standing('News')).toBe('Confirmed');
    expect(standing('Offers')).toBe('Unsubscribed');
    expect(standing('Events')).toBe(`Pending (until ${formatDateTime(EXPIRES, 'en')})`);
    expect(standing('Jobs')).toBe('Not a member');
    expect(within(row('News')).getByTestId('subscription-source').textContent).toBe(`Signed up through a form · ${formatDateTime(NOW, 'en')}`);
    expect(within(row('Offers')).getByTestId('subscription-source').textContent).toContain('Left by the person');
    expect(within(row('Tips')).getByTestId('subscription-source').textContent).toContain('Added in the console');
    expect(rows().map((r) => (within(r).getByTestId('subscription-switch') as HTMLInputElement).checked)).toEqual([true, false, false, true, false]);
    // One confirmed subscription: broadcasts reach the contact, no notice.
    expect(screen.queryByTestId('contact-held')).toBeNull();
  });

  it("says 'Member (added by the organisation)' for a contact the organisation added", async () => {
    await openCard({ membership: 'implied', memberships: SUBSCRIPTIONS.map((s) => member(s.id, 'confirmed', 'implied')), consents: [] });
    expect(rows().map((r) => within(r).getByTestId('subscription-standing').textContent)).toEqual(Array(5).fill('Member (added by the organisation)'));
    expect(within(row('News')).queryByTestId('subscription-source')).toBeNull();
    expect(screen.getByTestId('contact-no-consents').textContent).toBe('No sign-up through a form.');
  });

  it('shows each sign-up: form, signed up, confirmed or when it expires, the browser and the IP hash with what it proves', async () => {
    await openCard(SIGNED_UP_ANN);
    const [pending, confirmed] = screen.getAllByTestId('contact-consent');
    expect(within(pending).getByTestId('consent-form').textContent).toBe('Events sign-up');
    expect(within(pending).getByTestId('consent-confirmed').textContent).toBe(`Confirmed: not confirmed, expires ${formatDateTime(EXPIRES, 'en')}`);
    expect(within(pending).queryByTestId('consent-browser')).toBeNull();
    expect(within(confirmed).getByTestId('consent-form').textContent).toBe('Website footer');
    expect(confirmed.textContent).toContain('News');
    expect(within(confirmed).getByTestId('consent-signed-up').textContent).toBe(`Signed up: ${formatDateTime(SIGNED_UP, 'en')}`);
    expect(within(confirmed).getByTestId('consent-confirmed').textContent).toBe(`Confirmed: ${formatDateTime(CONFIRMED, 'en')}`);
    expect(within(confirmed).getByTestId('consent-browser').textContent).toBe(`Confirming browser: ${UA}`);
    const hash = within(confirmed).getByTestId('consent-ip-hash');
    expect(hash.textContent).toContain(HASH);
    expect(hash.textContent).toContain('It never reveals the address');
    expect(hash.textContent).toContain('the same IP gives the same hash');
  });

  it('says an expired sign-up expired', async () => {
    const expired = { ...SIGNED_UP_ANN.consents[0], expires_at: '2020-01-01T00:00:00.000Z' };
    await openCard({ ...SIGNED_UP_ANN, consents: [expired] });
    const consent = screen.getByTestId('contact-consent');
    expect(consent.getAttribute('data-state')).toBe('expired');
    expect(within(consent).getByTestId('consent-confirmed').textContent).toBe(
      `Confirmed: not confirmed, expired ${formatDateTime('2020-01-01T00:00:00.000Z', 'en')}`,
    );
  });

  it('warns that no broadcast reaches a signed-up contact with nothing confirmed', async () => {
    await openCard({ ...SIGNED_UP_ANN, memberships: [member(3, 'pending', 'form', 8), member(2, 'unsubscribed', 'unsubscribe')] });
    expect(screen.getByTestId('contact-held').textContent).toBe(
      'This contact signed up through a form and has confirmed no subscription yet: no broadcast reaches it until it confirms.',
    );
  });

  it('unsubscribes with a PUT of only that subscription, and shows the new standing', async () => {
    const api = await openCard(SIGNED_UP_ANN);
    fireEvent.click(within(row('News')).getByTestId('subscription-switch'));
    await waitFor(() => expect(puts(api)).toHaveLength(1));
    expect(puts(api)[0].url).toMatch(/\/api\/v1\/contact\/9\/memberships$/);
    expect(puts(api)[0].body).toEqual({ memberships: [{ subscription_id: 1, status: 'unsubscribed' }] });
    await waitFor(() => expect(standing('News')).toBe('Unsubscribed'));
    // Nothing asked first: taking someone off a list needs no consent.
    expect(screen.queryByTestId('confirm-ok')).toBeNull();
  });

  it('adds a subscription the contact never joined as confirmed, without asking', async () => {
    const api = await openCard(SIGNED_UP_ANN);
    fireEvent.click(within(row('Jobs')).getByTestId('subscription-switch'));
    await waitFor(() => expect(puts(api)).toHaveLength(1));
    expect(puts(api)[0].body).toEqual({ memberships: [{ subscription_id: 5, status: 'confirmed' }] });
    await waitFor(() => expect(standing('Jobs')).toBe('Confirmed'));
  });

  it('confirms a pending sign-up only after a dialog saying the person has not confirmed it', async () => {
    const api = await openCard(SIGNED_UP_ANN);
    fireEvent.click(within(row('Events')).getByTestId('subscription-switch'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Confirm a sign-up the person has not confirmed?');
    expect(dialog.textContent).toContain('This person signed up for Events but has not confirmed it themselves');
    fireEvent.click(within(dialog).getByTestId('confirm-cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(puts(api)).toHaveLength(0);
    expect(standing('Events')).toContain('Pending');

    fireEvent.click(within(row('Events')).getByTestId('subscription-switch'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(puts(api)).toHaveLength(1));
    expect(puts(api)[0].body).toEqual({ memberships: [{ subscription_id: 3, status: 'confirmed' }] });
    await waitFor(() => expect(standing('Events')).toBe('Confirmed'));
  });

  it('asks before subscribing again someone who left', async () => {
    const api = await openCard(SIGNED_UP_ANN);
    fireEvent.click(within(row('Offers')).getByTestId('subscription-switch'));
    expect((await screen.findByRole('dialog')).textContent).toContain('This person left Offers themselves.');
    fireEvent.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(puts(api)).toHaveLength(1));
    expect(puts(api)[0].body).toEqual({ memberships: [{ subscription_id: 2, status: 'confirmed' }] });
  });

  it('says why a refused change failed and keeps the standing', async () => {
    const api = membershipsApi(SIGNED_UP_ANN, { refusePut: true });
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    await waitFor(() => expect(rows()).toHaveLength(5), { timeout: 3000 });
    fireEvent.click(within(row('News')).getByTestId('subscription-switch'));
    await waitFor(() => expect(puts(api)).toHaveLength(1));
    await screen.findByText('Not found');
    await waitFor(() => expect((within(row('News')).getByTestId('subscription-switch') as HTMLInputElement).disabled).toBe(false));
    expect(standing('News')).toBe('Confirmed');
    expect((within(row('News')).getByTestId('subscription-switch') as HTMLInputElement).checked).toBe(true);
  });
});
