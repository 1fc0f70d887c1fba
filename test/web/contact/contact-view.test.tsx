import type { Contact } from '@shared/contracts/contact';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { attributeText, contactEngagement, namedAttributes } from '../../../web/src/features/contact/contact-view';
import { CONTACT, FIELDS, fakeAudienceApi } from '../fake-audience-api';
import { json, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// Issue 35, finding 4: a contact opens by clicking its row (or Enter on it) onto a read-only page with its addresses,
// fields, tags, subscriptions, suppressions with Lift ("Bounces and complaints"), messages and engagement.

// The pages are lazy chunks: loaded once here, so the first test does not pay Vite's transform inside its own time.
beforeAll(async () => {
  await Promise.all([
    import('../../../web/src/features/contact/ContactListPage'),
    import('../../../web/src/features/contact/ContactViewPage'),
    import('../../../web/src/features/contact/ContactFormPage'),
  ]);
});

const NOW = '2026-11-01T10:00:00.000Z';
const ANN: Contact = { ...CONTACT, note: 'Met at the fair' };
const list = <T,>(items: T[], total = items.length) => json(200, { items, meta: { total, page: 1, page_size: 100, total_pages: 1 } });

const message = (id: number, values: Record<string, unknown>) => ({
  id,
  type: 'email',
  status: 'sent',
  is_test: false,
  sender_id: 1,
  template_id: 1,
  contact_id: 9,
  broadcast_id: 3,
  from_address: 'hello@acme.test',
  from_name: null,
  to_address: 'ann@x.io',
  subject: `Issue ${id}`,
  delayed_at: null,
  sent_at: NOW,
  external_id: null,
  error: null,
  attempts: 1,
  opens_total: 0,
  opens_unique: 0,
  opened_at: null,
  clicks_total: 0,
  clicks_unique: 0,
  clicked_at: null,
  human_opens: 0,
  human_opened_at: null,
  human_clicks: 0,
  human_clicked_at: null,
  delivery_status: null,
  delivery_error_code: null,
  created_at: NOW,
  updated_at: NOW,
  ...values,
});

const MESSAGES = [
  message(3, { delivery_status: 'bounced' }),
  // Opened by a machine only (a mail-privacy proxy).
  message(2, { opens_unique: 1, opens_total: 1 }),
  // Opened and clicked by a person.
  message(1, { opens_unique: 1, opens_total: 2, human_opens: 2, human_opened_at: NOW, clicks_unique: 1, clicks_total: 1, human_clicks: 1 }),
];

function contactApi() {
  let suppressions = [{ id: 4, type: 'email', value: 'ann@x.io', reason: 'bounce', info: null, message_id: 3, created_at: NOW }];
  const unsubscribes = [
    { subscription_id: 2, subscription_name: 'Offers', reason: 'too_frequent', comment: null, source: 'page', message_id: 2, broadcast_id: 3, created_at: NOW },
  ];
  return fakeAudienceApi({
    fields: FIELDS,
    contacts: [ANN],
    answer: (call: FetchCall) => {
      const url = new URL(call.url, 'http://acme.localhost');
      const path = url.pathname.replace('/api/v1', '');
      if (path === '/subscription')
        return list([
          { id: 1, name: 'News', priority: 1, created_at: NOW, updated_at: NOW },
          { id: 2, name: 'Offers', priority: 2, created_at: NOW, updated_at: NOW },
        ]);
      if (path === '/message') return list(url.searchParams.get('contact_id') === '9' ? MESSAGES : [], 12);
      if (path === '/contact/9/unsubscribes') return json(200, { data: { unsubscribes, sms_opt_outs: [], suppressions } });
      if (path === '/contact/9/memberships')
        return json(200, {
          data: {
            membership: 'implied',
            memberships: [
              { subscription_id: 1, subscription_name: 'News', contact_id: 9, status: 'confirmed', source: 'implied', consent_id: null, updated_at: null },
              {
                subscription_id: 2,
                subscription_name: 'Offers',
                contact_id: 9,
                status: 'unsubscribed',
                source: 'unsubscribe',
                consent_id: null,
                updated_at: NOW,
              },
            ],
            consents: [],
          },
        });
      if (path === '/contact/9/suppressions/4' && call.method === 'DELETE') {
        suppressions = [];
        return new Response(null, { status: 204 });
      }
      return null;
    },
  });
}

describe('the contact list', () => {
  it('opens a contact by a click on its row', async () => {
    renderApp(contactApi(), { path: '/contact', signedIn: true });
    const row = await screen.findByTestId('list-row', undefined, { timeout: 3000 });
    fireEvent.click(within(row).getByText('Ann'));
    await waitFor(() => expect(window.location.pathname).toBe('/contact/view/9'));
    await screen.findByTestId('contact-view', undefined, { timeout: 3000 });
  });

  it('opens it with Enter on the focused row', async () => {
    renderApp(contactApi(), { path: '/contact', signedIn: true });
    const row = await screen.findByTestId('list-row', undefined, { timeout: 3000 });
    expect(row.getAttribute('tabindex')).toBe('0');
    fireEvent.keyDown(row, { key: 'Enter' });
    await waitFor(() => expect(window.location.pathname).toBe('/contact/view/9'));
  });

  it('still leads to the form by the pencil', async () => {
    renderApp(contactApi(), { path: '/contact', signedIn: true });
    const row = await screen.findByTestId('list-row', undefined, { timeout: 3000 });
    fireEvent.click(within(row).getByTestId('row-edit'));
    await waitFor(() => expect(window.location.pathname).toBe('/contact/update/9'));
  });

  it('leaves a click on the row checkbox to select the row', async () => {
    renderApp(contactApi(), { path: '/contact', signedIn: true });
    const row = await screen.findByTestId('list-row', undefined, { timeout: 3000 });
    fireEvent.click(within(row).getByTestId('row-select'));
    expect(window.location.pathname).toBe('/contact');
    expect((within(row).getByTestId('row-select') as HTMLInputElement).checked).toBe(true);
  });
});

describe("the contact's page", () => {
  it('shows the contact read-only with Edit one button away', async () => {
    renderApp(contactApi(), { path: '/contact/view/9', signedIn: true });
    await screen.findByTestId('contact-view', undefined, { timeout: 3000 });
    expect(screen.getByTestId('contact-view-name').textContent).toBe('Ann');
    expect(screen.getByTestId('contact-edit').getAttribute('href')).toBe('/contact/update/9');
    const addresses = screen.getByTestId('contact-addresses');
    expect(addresses.textContent).toContain('ann@x.io');
    expect(addresses.textContent).toContain('+15550001');
    // The blacklisted phone says so.
    expect(within(addresses).getAllByTestId('contact-address')[1].textContent).toContain('Blacklisted');
    expect(within(screen.getByTestId('contact-tags')).getByTestId('tag-chip').textContent).toBe('vip');
    await waitFor(() => expect(screen.getAllByTestId('contact-field')).toHaveLength(4));
    expect(screen.getAllByTestId('contact-field').map((field) => field.textContent)).toEqual(['Age: 42', 'Level: Silver', 'Topics: News', 'Active: Yes']);
    expect(screen.getByTestId('contact-note').textContent).toContain('Met at the fair');
    // Nothing on the page edits the contact: no form, no inputs.
    expect(screen.queryByTestId('entity-form')).toBeNull();
  });

  it("shows each subscription with the contact's standing, and the opt-out with its reason", async () => {
    renderApp(contactApi(), { path: '/contact/view/9', signedIn: true });
    await waitFor(() => expect(screen.getAllByTestId('contact-subscription')).toHaveLength(2), { timeout: 3000 });
    const [news, offers] = screen.getAllByTestId('contact-subscription');
    expect(within(news).getByTestId('subscription-standing').textContent).toBe('Member (added by the organisation)');
    expect(within(offers).getByTestId('subscription-standing').textContent).toBe('Unsubscribed');
    expect(within(offers).getByTestId('subscription-source').textContent).toContain('Left by the person');
    expect((await screen.findByTestId('contact-unsubscribe')).textContent).toContain('Offers');
  });

  it('lists the suppressed address under "Bounces and complaints" and lifts it', async () => {
    const api = contactApi();
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    const entry = await screen.findByTestId('contact-suppression', undefined, { timeout: 3000 });
    const panel = screen.getByTestId('contact-bounces');
    expect(within(panel).getByRole('heading').textContent).toBe('Bounces and complaints');
    expect(within(entry).getByTestId('suppression-reason').textContent).toBe('Bounced');
    fireEvent.click(within(entry).getByTestId('contact-suppression-lift'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/contact/9/suppressions/4'))).toBe(true));
    await screen.findByTestId('contact-no-suppressions');
  });

  it('lists its latest messages with their outcome, and its engagement, people beside all', async () => {
    const api = contactApi();
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    await waitFor(() => expect(screen.getAllByTestId('contact-message')).toHaveLength(3), { timeout: 3000 });
    const asked = api.calls.find((c) => new URL(c.url, 'http://x').pathname.endsWith('/message'))!;
    expect(new URL(asked.url, 'http://x').searchParams.get('contact_id')).toBe('9');
    const [bounced, machine] = screen.getAllByTestId('contact-message');
    // A bounce reads as the outcome, not as "Sent".
    expect(within(bounced).getByTestId('message-status').getAttribute('data-status')).toBe('bounced');
    expect(bounced.textContent).toContain('Bounced');
    expect(within(machine).getByTestId('message-status').textContent).toBe('Sent');
    expect(within(bounced).getByRole('link').getAttribute('href')).toBe('/message/view/3');
    expect(screen.getByTestId('contact-engagement-messages').getAttribute('data-value')).toBe('3');
    const opened = screen.getByTestId('contact-engagement-opened');
    expect(opened.getAttribute('data-value')).toBe('2');
    expect(opened.textContent).toContain('1 by a person');
    expect(screen.getByTestId('contact-engagement-clicked').getAttribute('data-value')).toBe('1');
    // Twelve in all, three read here: the page says the figures are of the latest ones.
    expect(screen.getByTestId('contact-engagement').textContent).toContain('Counted over the latest 3 messages.');
    expect(screen.getByTestId('contact-messages-more').textContent).toBe('The latest 3 of 12.');
  });

  it('says so when the contact has had no message', async () => {
    renderApp(
      fakeAudienceApi({
        fields: FIELDS,
        contacts: [{ ...ANN, id: 10 }],
        answer: (call) => {
          const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
          if (path === '/message' || path === '/subscription') return list([]);
          if (path === '/contact/10/unsubscribes') return json(200, { data: { unsubscribes: [], sms_opt_outs: [], suppressions: [] } });
          if (path === '/contact/10/memberships') return json(200, { data: { membership: 'implied', memberships: [], consents: [] } });
          return null;
        },
      }),
      { path: '/contact/view/10', signedIn: true },
    );
    expect((await screen.findByTestId('contact-no-messages', undefined, { timeout: 3000 })).textContent).toBe('No message has been sent to this contact yet.');
  });
});

describe('what the page works out', () => {
  it('names field values: options by name, booleans as yes or no', () => {
    const yesNo = { yes: 'Yes', no: 'No' };
    const named = namedAttributes(FIELDS, CONTACT.attributes);
    expect(named.map(({ field, value }) => `${field.name}=${attributeText(field, value, yesNo)}`)).toEqual([
      'Age=42',
      'Level=Silver',
      'Topics=News',
      'Active=Yes',
    ]);
  });

  it('counts each message once, and people apart', () => {
    expect(contactEngagement(MESSAGES)).toEqual({ messages: 3, opened: 2, openedByPeople: 1, clicked: 1, clickedByPeople: 1 });
  });

  it('counts a message a person only clicked as opened by a person (a click counts as an open)', () => {
    const clickedOnly = message(4, { opens_unique: 1, human_opened_at: NOW, clicks_unique: 1, clicks_total: 1, human_clicks: 1 });
    expect(contactEngagement([clickedOnly])).toMatchObject({ opened: 1, openedByPeople: 1, clicked: 1, clickedByPeople: 1 });
  });
});
