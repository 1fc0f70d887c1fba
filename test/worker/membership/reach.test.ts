import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { insertContact, newOrg, type Org } from '../channel-helpers';

// The membership rule (src/modules/membership/rules.ts) as broadcasts read it, through the recipients preview the
// broadcast form and the engine share: a held contact (signed up, confirmed nothing) is reached by no broadcast of any
// kind; a pending member of S is no recipient of S's broadcasts, skipping the unsubscribed or not; an organisation-added
// contact is a member of every subscription without a row; an explicit contact only where confirmed.

const sql = (query: string, ...values: unknown[]) =>
  env.DB.prepare(query)
    .bind(...values)
    .run();
const member = (o: Org, subscriptionId: number, contactId: number, status: string) =>
  sql(
    `INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source) VALUES (?, ?, ?, ?, 'form')`,
    o.orgId,
    subscriptionId,
    contactId,
    status,
  );

async function setup() {
  const o = await newOrg('mr');
  const news = (await o.api('POST', '/subscription', { name: 'News' })).body.data.id as number;
  const offers = (await o.api('POST', '/subscription', { name: 'Offers' })).body.data.id as number;
  const tag = (await o.api('POST', '/tag', { name: 'All' })).body.data.id as number;
  const person = async (name: string, membership: 'implied' | 'explicit') => {
    const id = await insertContact(o.orgId, name, [
      { type: 'email', value: `${name.toLowerCase()}@example.com` },
      { type: 'phone', value: `+1555000${String(Math.floor(Math.random() * 9000) + 1000)}` },
    ]);
    await sql('UPDATE contacts SET membership = ? WHERE id = ?', membership, id);
    await sql('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)', o.orgId, id, tag);
    return id;
  };
  const people = {
    // Added by the organisation: a member of both without a row.
    added: await person('Added', 'implied'),
    // Added by the organisation, then signed up for Offers through a form and not confirmed yet.
    addedPending: await person('Known', 'implied'),
    // Signed up for News, not confirmed: held.
    held: await person('Held', 'explicit'),
    // Signed up for News and confirmed; pending in Offers.
    confirmed: await person('Confirmed', 'explicit'),
  };
  await member(o, offers, people.addedPending, 'pending');
  await member(o, news, people.held, 'pending');
  await member(o, news, people.confirmed, 'confirmed');
  await member(o, offers, people.confirmed, 'pending');
  return { o, news, offers, tag, people };
}

type Filter = { tags?: number[]; ids?: number[]; skip_unsubscribed?: boolean };
async function recipients(o: Org, type: 'email' | 'phone', subscriptionId: number | null, filter: Filter): Promise<string[]> {
  const res = await o.api('POST', '/broadcast/preview', {
    type,
    ...(subscriptionId ? { subscription_id: subscriptionId } : {}),
    contacts: { filter },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data.total).toBe(res.body.data.sample.length);
  return res.body.data.sample.map((s: { name: string }) => s.name).sort();
}

describe('who a broadcast reaches under memberships', () => {
  it('reaches no held contact by any kind of broadcast: email or SMS, tag-only, by ids, with or without a subscription', async () => {
    const { o, news, tag, people } = await setup();
    const everyone = Object.values(people);
    for (const type of ['email', 'phone'] as const) {
      expect(await recipients(o, type, null, { tags: [tag] })).toEqual(['Added', 'Confirmed', 'Known']);
      expect(await recipients(o, type, null, { ids: everyone })).toEqual(['Added', 'Confirmed', 'Known']);
      expect(await recipients(o, type, news, { tags: [tag], skip_unsubscribed: false })).not.toContain('Held');
      expect(await recipients(o, type, news, { ids: everyone })).not.toContain('Held');
    }
  });

  it("reaches a subscription's confirmed and organisation-added members, never its pending ones nor an explicit contact's other subscriptions", async () => {
    const { o, news, offers, tag } = await setup();
    expect(await recipients(o, 'email', news, { tags: [tag] })).toEqual(['Added', 'Confirmed', 'Known']);
    // Offers: Known is pending there (a stranger's sign-up with a known address holds nothing else back), Confirmed
    // pending too, Held never asked for it.
    expect(await recipients(o, 'email', offers, { tags: [tag] })).toEqual(['Added']);
    // Not skipping the unsubscribed still leaves the pending out; News, where nobody is pending but Held, is unchanged.
    expect(await recipients(o, 'email', offers, { tags: [tag], skip_unsubscribed: false })).toEqual(['Added']);
    expect(await recipients(o, 'email', news, { tags: [tag], skip_unsubscribed: false })).toEqual(['Added', 'Confirmed', 'Known']);
  });

  it('confirming makes a held contact a recipient; leaving its only subscription holds it again; joining again releases it', async () => {
    const { o, news, tag, people } = await setup();
    await sql(`UPDATE subscription_members SET status = 'confirmed' WHERE subscription_id = ? AND contact_id = ?`, news, people.held);
    expect(await recipients(o, 'email', news, { tags: [tag] })).toEqual(['Added', 'Confirmed', 'Held', 'Known']);
    // The confirmation is an event of the stream (migration 0030's trigger, in the same write).
    const events = await env.DB.prepare(`SELECT data FROM event_outbox WHERE org_id = ? AND type = 'contact.subscribed' AND contact_id = ?`)
      .bind(o.orgId, people.held)
      .all<{ data: string }>();
    expect(events.results.map((e) => JSON.parse(e.data))).toEqual([{ contact_id: people.held, subscription_id: news, source: 'form', consent_id: null }]);
    // Leaving goes through the unsubscribes (the act, with its reason); the trigger keeps the member row with it.
    await sql('INSERT INTO unsubscribes (org_id, contact_id, subscription_id, source) VALUES (?, ?, ?, ?)', o.orgId, people.held, news, 'page');
    const row = await env.DB.prepare('SELECT status, source FROM subscription_members WHERE subscription_id = ? AND contact_id = ?')
      .bind(news, people.held)
      .first();
    expect(row).toEqual({ status: 'unsubscribed', source: 'unsubscribe' });
    // A person who signed up agreed to nothing else: with no confirmed subscription left, no broadcast reaches them.
    expect(await recipients(o, 'email', news, { tags: [tag] })).toEqual(['Added', 'Confirmed', 'Known']);
    expect(await recipients(o, 'email', null, { tags: [tag] })).toEqual(['Added', 'Confirmed', 'Known']);
    // Joining again (the page, the console) deletes the unsubscribe: the member is confirmed again.
    await sql('DELETE FROM unsubscribes WHERE contact_id = ? AND subscription_id = ?', people.held, news);
    expect(await recipients(o, 'email', news, { tags: [tag] })).toContain('Held');
  });
});

describe('GET /contact/{id}/memberships', () => {
  it("lists the contact's standing in every subscription, implied where the organisation added it, and only its own organisation's", async () => {
    const { o, news, offers, people } = await setup();
    const standing = async (id: number) => (await o.api('GET', `/contact/${id}/memberships`)).body.data;
    const added = await standing(people.addedPending);
    expect(added.membership).toBe('implied');
    expect(added.memberships.map((m: { subscription_id: number; status: string; source: string }) => [m.subscription_id, m.status, m.source])).toEqual([
      [news, 'confirmed', 'implied'],
      [offers, 'pending', 'form'],
    ]);
    const confirmed = await standing(people.confirmed);
    expect(confirmed.membership).toBe('explicit');
    expect(confirmed.memberships.map((m: { status: string }) => m.status)).toEqual(['confirmed', 'pending']);
    // An explicit contact is a member only where a row says so.
    const held = await standing(people.held);
    expect(held.memberships.map((m: { subscription_id: number; status: string }) => [m.subscription_id, m.status])).toEqual([[news, 'pending']]);
    const other = await newOrg('mr');
    expect((await other.api('GET', `/contact/${people.held}/memberships`)).status).toBe(404);
  });
});
