import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MEMBERSHIP_MESSAGES } from '../../../src/shared/contracts/membership';
import { deliverMessage } from '../../../src/modules/message/send-message';
import { channels, insertContact, newOrg, recordingProviders, type Org } from '../channel-helpers';
import { call } from '../helpers';

// The memberships the organisation manages (issue 39): PUT /contact/{id}/memberships and the contact writes'
// `subscriptions` set a standing (confirmed or unsubscribed) with a source through the unsubscribe store; broadcasts then
// reach or skip the contact by the membership rule; refusals change nothing; another organisation's rows are 404s/422s.

const one = <T>(query: string, ...values: unknown[]) =>
  env.DB.prepare(query)
    .bind(...values)
    .first<T>();
const run = (query: string, ...values: unknown[]) =>
  env.DB.prepare(query)
    .bind(...values)
    .run();

async function setup(prefix = 'mo') {
  const o = await newOrg(prefix);
  const news = (await o.api('POST', '/subscription', { name: 'News' })).body.data.id as number;
  const offers = (await o.api('POST', '/subscription', { name: 'Offers' })).body.data.id as number;
  const tag = (await o.api('POST', '/tag', { name: 'All' })).body.data.id as number;
  const person = async (name: string, membership: 'implied' | 'explicit' = 'implied') => {
    const id = await insertContact(o.orgId, name, [{ type: 'email', value: `${name.toLowerCase()}@example.com` }]);
    await run('UPDATE contacts SET membership = ? WHERE id = ?', membership, id);
    await run('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)', o.orgId, id, tag);
    return id;
  };
  return { o, news, offers, tag, person };
}

/** The names a broadcast of `subscriptionId` to the tag would send to (the preview's sample: selected and not skipped). */
async function reached(o: Org, subscriptionId: number | null, tag: number): Promise<string[]> {
  const res = await o.api('POST', '/broadcast/preview', {
    type: 'email',
    ...(subscriptionId ? { subscription_id: subscriptionId } : {}),
    contacts: { filter: { tags: [tag] } },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data.sample
    .filter((s: { skipped_reason: string | null }) => s.skipped_reason === null)
    .map((s: { name: string }) => s.name)
    .sort();
}

const memberRow = (subscriptionId: number, contactId: number) =>
  one<{ status: string; source: string; expires_at: string | null }>(
    'SELECT status, source, expires_at FROM subscription_members WHERE subscription_id = ? AND contact_id = ?',
    subscriptionId,
    contactId,
  );
/** The contact's subscription events as the organisation's stream (GET /events, which absorbs D1's outbox first) has them. */
const events = async (o: Org, contactId: number) => {
  const res = await o.api('GET', '/events?types=contact.subscribed,contact.unsubscribed,contact.resubscribed');
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { type: string; data: Record<string, unknown> }[])
    .filter((e) => e.data.contact_id === contactId)
    .map((e): Record<string, unknown> => ({ type: e.type, ...e.data }));
};

describe('PUT /contact/{id}/memberships', () => {
  it('unsubscribes and confirms again with a source: the broadcast skips then reaches the contact, events and the log say so', async () => {
    const { o, news, tag, person } = await setup();
    const ann = await person('Ann');
    await person('Bob');
    expect(await reached(o, news, tag)).toEqual(['Ann', 'Bob']);

    const left = await o.api('PUT', `/contact/${ann}/memberships`, { memberships: [{ subscription_id: news, status: 'unsubscribed' }] });
    expect(left.status, left.text).toBe(200);
    // Answered as GET answers: the standing by the membership rule, the signed-in user's source 'console'.
    const newsOf = (data: { memberships: { subscription_id: number }[] }) => data.memberships.find((m) => m.subscription_id === news);
    expect(newsOf(left.body.data)).toMatchObject({ status: 'unsubscribed', source: 'console', contact_id: ann });
    expect((await o.api('GET', `/contact/${ann}/memberships`)).body).toEqual(left.body);
    // Written by the one writer: an unsubscribes row (the act, with the organisation's source) mirrored by the trigger.
    expect(await one('SELECT source FROM unsubscribes WHERE contact_id = ? AND subscription_id = ?', ann, news)).toEqual({ source: 'console' });
    expect(await reached(o, news, tag)).toEqual(['Bob']);

    const back = await o.api('PUT', `/contact/${ann}/memberships`, { memberships: [{ subscription_id: news, status: 'confirmed', source: 'import' }] });
    expect(back.status, back.text).toBe(200);
    expect(newsOf(back.body.data)).toMatchObject({ status: 'confirmed', source: 'import' });
    expect(await one('SELECT 1 AS n FROM unsubscribes WHERE contact_id = ?', ann)).toBeNull();
    expect(await memberRow(news, ann)).toMatchObject({ status: 'confirmed', source: 'import' });
    expect(await reached(o, news, tag)).toEqual(['Ann', 'Bob']);

    // The events the preferences page's leave and join give, no more.
    expect((await events(o, ann)).map((e) => [e.type, e.subscription_id])).toEqual([
      ['contact.unsubscribed', news],
      ['contact.resubscribed', news],
    ]);
    // A repeat changes nothing and logs nothing.
    const logged = async () =>
      (
        await env.DB.prepare(
          "SELECT field, previous_value AS previous, new_value AS next FROM activity_log WHERE org_id = ? AND entity = 'contact' AND entity_id = ? ORDER BY id",
        )
          .bind(o.orgId, ann)
          .all()
      ).results;
    const before = await logged();
    expect(before).toEqual([
      { field: 'subscription: News', previous: 'confirmed (implied)', next: 'unsubscribed (console)' },
      { field: 'subscription: News', previous: 'unsubscribed (console)', next: 'confirmed (import)' },
    ]);
    await o.api('PUT', `/contact/${ann}/memberships`, { memberships: [{ subscription_id: news, status: 'confirmed' }] });
    expect(await logged()).toEqual(before);
    expect(await events(o, ann)).toHaveLength(2);
  });

  it("confirms an explicit contact's pending membership: no longer held, reached by broadcasts, contact.subscribed", async () => {
    const { o, news, offers, tag, person } = await setup();
    await person('Ann');
    const pat = await person('Pat', 'explicit');
    await run(
      "INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source, expires_at) VALUES (?, ?, ?, 'pending', 'form', '2099-01-01T00:00:00.000Z')",
      o.orgId,
      news,
      pat,
    );
    expect(await reached(o, null, tag)).toEqual(['Ann']);
    const res = await o.api('PUT', `/contact/${pat}/memberships`, { memberships: [{ subscription_id: news, status: 'confirmed' }] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.membership).toBe('explicit');
    expect(res.body.data.memberships).toEqual([expect.objectContaining({ subscription_id: news, status: 'confirmed', source: 'console' })]);
    expect(await memberRow(news, pat)).toEqual({ status: 'confirmed', source: 'console', expires_at: null });
    expect(await reached(o, null, tag)).toEqual(['Ann', 'Pat']);
    expect(await reached(o, news, tag)).toEqual(['Ann', 'Pat']);
    // Still no member of what it never joined.
    expect(await reached(o, offers, tag)).toEqual(['Ann']);
    expect(await events(o, pat)).toEqual([expect.objectContaining({ type: 'contact.subscribed', contact_id: pat, subscription_id: news, source: 'console' })]);
  });

  it("takes 'api' as the source of an API key's call", async () => {
    const { o, news, person } = await setup();
    const ann = await person('Ann');
    const key = (await o.api('POST', '/organization-api-key', { name: 'CRM', scope: 'full' })).body.data.key as string;
    const res = await call(o.org, `/api/v1/contact/${ann}/memberships`, {
      method: 'PUT',
      token: key,
      json: { memberships: [{ subscription_id: news, status: 'unsubscribed' }] },
    });
    expect(res.status).toBe(200);
    expect(await memberRow(news, ann)).toMatchObject({ status: 'unsubscribed', source: 'api' });
    expect(await one('SELECT source FROM unsubscribes WHERE contact_id = ?', ann)).toEqual({ source: 'api' });
    const log = await one<{ key_name: string | null }>("SELECT * FROM activity_log WHERE org_id = ? AND entity_id = ? AND entity = 'contact'", o.orgId, ann);
    expect(log).not.toBeNull();
  });

  it("refuses unknown, foreign and repeated subscriptions with each item's field (changing nothing), bad bodies, and another organisation's contact", async () => {
    const { o, news, offers, person } = await setup();
    const other = await setup('mx');
    const ann = await person('Ann');
    const theirs = await other.person('Zed');
    const res = await o.api('PUT', `/contact/${ann}/memberships`, {
      memberships: [
        { subscription_id: news, status: 'unsubscribed' },
        { subscription_id: other.news, status: 'unsubscribed' },
        { subscription_id: 987654 },
        { subscription_id: news, status: 'confirmed' },
      ],
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.error.fields).toEqual({
      'memberships.1.subscription_id': [MEMBERSHIP_MESSAGES.unknownSubscription],
      'memberships.2.subscription_id': [MEMBERSHIP_MESSAGES.unknownSubscription],
      'memberships.3.subscription_id': [MEMBERSHIP_MESSAGES.twice],
    });
    expect(await one('SELECT count(*) AS n FROM unsubscribes WHERE contact_id = ?', ann)).toEqual({ n: 0 });
    for (const body of [
      {},
      { memberships: [] },
      { memberships: [{ subscription_id: news, status: 'pending' }] },
      { memberships: [{ subscription_id: news, source: 'form' }] },
    ]) {
      const bad = await o.api('PUT', `/contact/${ann}/memberships`, body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(bad.body.error.fields).length).toBeGreaterThan(0);
    }
    // Another organisation's contact, or none: 404, and nothing written to it.
    for (const id of [theirs, 987654]) {
      expect((await o.api('PUT', `/contact/${id}/memberships`, { memberships: [{ subscription_id: offers, status: 'unsubscribed' }] })).status).toBe(404);
    }
    expect(await one('SELECT count(*) AS n FROM subscription_members WHERE contact_id = ?', theirs)).toEqual({ n: 0 });
    expect((await o.api('GET', `/contact/${theirs}/memberships`)).status).toBe(404);
  });
});

describe('the contact writes take subscriptions', () => {
  it('POST /contact joins and leaves in the same request; a foreign subscription is a 422 that creates nothing', async () => {
    const { o, news, offers, tag } = await setup();
    const other = await setup('my');
    const created = await o.api('POST', '/contact', {
      name: 'Cat',
      addresses: [{ type: 'email', value: 'cat@example.com' }],
      tags: [tag],
      subscriptions: [
        { subscription_id: news, status: 'confirmed', source: 'api' },
        { subscription_id: offers, status: 'unsubscribed' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    expect(await memberRow(news, id)).toMatchObject({ status: 'confirmed', source: 'api' });
    expect(await memberRow(offers, id)).toMatchObject({ status: 'unsubscribed', source: 'console' });
    expect(await reached(o, news, tag)).toEqual(['Cat']);
    expect(await reached(o, offers, tag)).toEqual([]);

    const count = async () => (await one<{ n: number }>('SELECT count(*) AS n FROM contacts WHERE org_id = ?', o.orgId))!.n;
    const before = await count();
    const refused = await o.api('POST', '/contact', {
      name: 'Dan',
      addresses: [{ type: 'email', value: 'dan@example.com' }],
      subscriptions: [{ subscription_id: other.news }],
    });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.fields).toEqual({ 'subscriptions.0.subscription_id': [MEMBERSHIP_MESSAGES.unknownSubscription] });
    expect(await count()).toBe(before);
  });

  it('PATCH and PUT /contact/{id} set subscriptions; those left out keep their standing; a 422 changes nothing', async () => {
    const { o, news, offers, tag, person } = await setup();
    const ann = await person('Ann');
    const patched = await o.api('PATCH', `/contact/${ann}`, { subscriptions: [{ subscription_id: news, status: 'unsubscribed' }] });
    expect(patched.status, patched.text).toBe(200);
    expect(await reached(o, news, tag)).toEqual([]);
    expect(await reached(o, offers, tag)).toEqual(['Ann']);
    const refused = await o.api('PUT', `/contact/${ann}`, {
      name: 'Ann Renamed',
      addresses: [{ type: 'email', value: 'ann@example.com' }],
      subscriptions: [{ subscription_id: news }, { subscription_id: 987654 }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual({ 'subscriptions.1.subscription_id': [MEMBERSHIP_MESSAGES.unknownSubscription] });
    expect(await one('SELECT name FROM contacts WHERE id = ?', ann)).toEqual({ name: 'Ann' });
    expect(await reached(o, news, tag)).toEqual([]);
    const put = await o.api('PUT', `/contact/${ann}`, {
      name: 'Ann',
      addresses: [{ type: 'email', value: 'ann@example.com' }],
      tags: [tag],
      subscriptions: [{ subscription_id: news }],
    });
    expect(put.status, put.text).toBe(200);
    expect(await reached(o, news, tag)).toEqual(['Ann']);
    // A PUT without subscriptions leaves them as they are.
    await o.api('PATCH', `/contact/${ann}`, { subscriptions: [{ subscription_id: offers, status: 'unsubscribed' }] });
    await o.api('PUT', `/contact/${ann}`, { name: 'Ann', addresses: [{ type: 'email', value: 'ann@example.com' }], tags: [tag] });
    expect(await reached(o, offers, tag)).toEqual([]);
  });
});

describe('GET /subscription/{id}/members', () => {
  it('lists by the membership rule, filtered by status, implied contacts as confirmed with source implied', async () => {
    const { o, news, offers, person } = await setup();
    const ann = await person('Ann');
    const bob = await person('Bob');
    const pat = await person('Pat', 'explicit');
    const held = await person('Hal', 'explicit');
    await run(
      "INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source) VALUES (?, ?, ?, 'confirmed', 'form')",
      o.orgId,
      news,
      pat,
    );
    await run(
      "INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source) VALUES (?, ?, ?, 'pending', 'form')",
      o.orgId,
      news,
      held,
    );
    await o.api('PUT', `/contact/${bob}/memberships`, { memberships: [{ subscription_id: news, status: 'unsubscribed' }] });
    const list = async (query = '') => {
      const res = await o.api('GET', `/subscription/${news}/members${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const all = await list();
    expect(all.items.map((m: { contact_id: number; status: string; source: string }) => [m.contact_id, m.status, m.source])).toEqual([
      [ann, 'confirmed', 'implied'],
      [bob, 'unsubscribed', 'console'],
      [pat, 'confirmed', 'form'],
      [held, 'pending', 'form'],
    ]);
    expect(all.items[0]).toEqual({ contact_id: ann, contact_name: 'Ann', status: 'confirmed', source: 'implied', consent_id: null, updated_at: null });
    expect(all.meta).toEqual({ total: 4, page: 1, page_size: 10, total_pages: 1 });
    const ids = async (status: string) => (await list(`?status=${status}`)).items.map((m: { contact_id: number }) => m.contact_id);
    expect(await ids('confirmed')).toEqual([ann, pat]);
    expect(await ids('pending')).toEqual([held]);
    expect(await ids('unsubscribed')).toEqual([bob]);
    // Offers: the explicit contacts never joined it.
    expect((await o.api('GET', `/subscription/${offers}/members`)).body.items.map((m: { contact_id: number }) => m.contact_id)).toEqual([ann, bob]);
  });

  it('pages by contact id (after_id) or by page, with the total', async () => {
    const { o, news, person } = await setup();
    const people = [];
    for (const name of ['A', 'B', 'C', 'D', 'E']) people.push(await person(`P${name}`));
    const first = (await o.api('GET', `/subscription/${news}/members?page_size=2`)).body;
    expect(first.items.map((m: { contact_id: number }) => m.contact_id)).toEqual(people.slice(0, 2));
    expect(first.meta).toEqual({ total: 5, page: 1, page_size: 2, total_pages: 3 });
    const next = (await o.api('GET', `/subscription/${news}/members?page_size=2&after_id=${people[1]}`)).body;
    expect(next.items.map((m: { contact_id: number }) => m.contact_id)).toEqual(people.slice(2, 4));
    const third = (await o.api('GET', `/subscription/${news}/members?page_size=2&page=3`)).body;
    expect(third.items.map((m: { contact_id: number }) => m.contact_id)).toEqual(people.slice(4));
    const last = (await o.api('GET', `/subscription/${news}/members?status=confirmed&after_id=${people[4]}`)).body;
    expect(last.items).toEqual([]);
  });

  it("refuses bad queries with field messages and another organisation's subscription with a 404", async () => {
    const { o, news } = await setup();
    const other = await setup('mz');
    await other.person('Zed');
    for (const [query, field] of [
      ['?status=implied', 'status'],
      ['?page_size=500', 'page_size'],
      ['?after_id=x', 'after_id'],
      ['?page=2&after_id=3', 'after_id'],
      ['?sort_by=name', ''],
    ] as const) {
      const res = await o.api('GET', `/subscription/${news}/members${query}`);
      expect(res.status, query).toBe(422);
      if (field) expect(res.body.error.fields[field], query).toBeDefined();
    }
    expect((await o.api('GET', `/subscription/${other.news}/members`)).status).toBe(404);
    expect((await o.api('GET', '/subscription/987654/members')).status).toBe(404);
  });
});

describe('a held contact and transactional sends', () => {
  it('a pending (form) contact, reached by no broadcast, still gets a transactional message', async () => {
    const { o, news, tag, person } = await setup('mt');
    const ch = await channels(o);
    const held = await person('Hal', 'explicit');
    await run(
      "INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source) VALUES (?, ?, ?, 'pending', 'form')",
      o.orgId,
      news,
      held,
    );
    expect(await reached(o, null, tag)).toEqual([]);
    const res = await o.api('POST', '/send', { to: 'hal@example.com', sender_id: ch.email.id, subject: 'Your code', text: 'Code 1234' });
    expect(res.status, res.text).toBe(202);
    const rec = recordingProviders();
    await deliverMessage(env, { orgId: o.orgId, messageId: res.body.data.id }, 1, rec.providers);
    expect(rec.sent.map((m) => m.to)).toEqual(['hal@example.com']);
  });
});
