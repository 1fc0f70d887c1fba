// The preferences page (issue 39): the unsubscribe page opened with a contact-scoped link (?p=, expiring, naming no
// message). Every subscription with its standing and join/leave (a pending sign-up shown and leavable), the contact's
// name and language, "unsubscribe from everything"; each change a POST and a 303 back; bad input 422 and no change;
// a forged, expired or foreign link the broken-link page. The RFC 8058 one-click POST stays the message link's only.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { preferencesToken } from '../../../src/lib/templating/preferences-link';
import { insertContact, newOrg } from '../channel-helpers';
import { call, createOrg } from '../helpers';

let counter = 0;

/** An organisation with five subscriptions (one named with markup) and Ann, an email contact; Ann's preferences link. */
async function preferences(prefix: string) {
  const domain = `${prefix}${++counter}p${Math.floor(Math.random() * 1e6)}`;
  const { orgId } = await createOrg(domain);
  const subs: number[] = [];
  for (const name of ['News', 'Offers <b>', 'Events', 'Product updates', 'Surveys']) {
    const row = await env.DB.prepare('INSERT INTO subscriptions (org_id, name, priority) VALUES (?, ?, ?) RETURNING id')
      .bind(orgId, name, subs.length)
      .first<{ id: number }>();
    subs.push(row!.id);
  }
  const ann = await insertContact(orgId, 'Ann <i>Lee</i>', [{ type: 'email', value: 'ann@example.com' }]);
  const p = await preferencesToken(env, { orgId, contactId: ann });
  return { domain, orgId, subs, ann, p };
}

// Each organisation's visitor from its own address: the page's limit per address (30 a minute) is not under test here.
const ips = new Map<string, string>();
const ip = (domain: string) => ips.get(domain) ?? ips.set(domain, `10.39.${ips.size + 1}.1`).get(domain)!;
const page = (domain: string, query: string, language = 'en') =>
  call(domain, `/unsubscribe?${query}`, { headers: { 'accept-language': language, 'cf-connecting-ip': ip(domain) } });
const post = (domain: string, path: string, fields: Record<string, string>, language = 'en') =>
  call(domain, `/unsubscribe/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': language, 'cf-connecting-ip': ip(domain) },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
const left = (orgId: number) =>
  env.DB.prepare('SELECT subscription_id, contact_id, source FROM unsubscribes WHERE org_id = ? ORDER BY subscription_id')
    .bind(orgId)
    .all()
    .then((r) => r.results);
const contactRow = (id: number) => env.DB.prepare('SELECT name, language FROM contacts WHERE id = ?').bind(id).first();
const members = (contactId: number) =>
  env.DB.prepare('SELECT subscription_id, status, source FROM subscription_members WHERE contact_id = ? ORDER BY subscription_id')
    .bind(contactId)
    .all()
    .then((r) => r.results);

describe('the preferences link (?p=)', () => {
  it('opens the page for the contact alone: every subscription with its standing, the name and language, leave all; small, no script', async () => {
    const { domain, subs, p } = await preferences('pv');
    const res = await page(domain, `p=${p}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).not.toMatch(/<script|<link /i);
    // The page's own bytes with five subscriptions: the budget is 15 KB.
    expect(new TextEncoder().encode(html).length).toBeLessThan(15 * 1024);
    expect(html).toContain('<h1>Your email preferences</h1>');
    // No message, so no question about one: every subscription is listed, each with its own button.
    expect(html).not.toContain('data-testid="unsubscribe-question"');
    for (const id of subs) expect(html).toContain(`data-testid="unsubscribe-toggle-${id}">Unsubscribe</button>`);
    expect(html).toContain('Offers &lt;b&gt;');
    expect(html).not.toContain('Offers <b>');
    // The forms carry the preferences link back, never a message link.
    expect(html).toContain(`<input type="hidden" name="p" value="${p}">`);
    expect(html).not.toContain('name="m"');
    expect(html).toContain('value="Ann &lt;i&gt;Lee&lt;/i&gt;"');
    expect(html).toContain('data-testid="unsubscribe-leave-all"');
    expect(html).toContain('a•••@example.com');
  });

  it('shows forged, expired and foreign links the broken-link page, and their POSTs change nothing', async () => {
    const { domain, orgId, subs, ann, p } = await preferences('pf');
    const other = await preferences('pf');
    const forged = `${p.slice(0, -2)}${p.endsWith('aa') ? 'bb' : 'aa'}`;
    const expired = await preferencesToken(env, { orgId, contactId: ann }, Date.now() - 8 * 86_400_000);
    // Signed for organisation A, naming organisation B's contact.
    const foreign = await preferencesToken(env, { orgId, contactId: other.ann });
    for (const token of [forged, expired, foreign, '']) {
      const res = await page(domain, `p=${encodeURIComponent(token)}`);
      expect(res.status, token).toBe(404);
      expect(await res.text()).toContain('data-testid="unsubscribe-invalid"');
      expect((await post(domain, 'leave-all', { p: token })).status).toBe(404);
      expect((await post(domain, 'profile', { p: token, name: 'Mallory', language: 'en' })).status).toBe(404);
      expect((await post(domain, 'change', { p: token, action: 'leave', subscription_id: String(subs[0]) })).status).toBe(404);
    }
    expect(await left(orgId)).toEqual([]);
    expect(await left(other.orgId)).toEqual([]);
    expect(await contactRow(other.ann)).toEqual({ name: 'Ann <i>Lee</i>', language: null });
    // A link made six days ago still works.
    const recent = await preferencesToken(env, { orgId, contactId: ann }, Date.now() - 6 * 86_400_000);
    expect((await page(domain, `p=${recent}`)).status).toBe(200);
  });

  it('is never an RFC 8058 one-click URL: a one-click POST with p= is refused and changes nothing', async () => {
    const { domain, orgId, p } = await preferences('po');
    const res = await call(domain, `/unsubscribe?p=${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(404);
    expect(await left(orgId)).toEqual([]);
  });

  it('leaves and joins one subscription, redirecting back to the preferences link', async () => {
    const { domain, orgId, subs, ann, p } = await preferences('pc');
    const leave = await post(domain, 'change', { p, action: 'leave', after: 'changed', subscription_id: String(subs[1]) });
    expect(leave.status).toBe(303);
    const back = new URL(leave.headers.get('location')!, 'http://x');
    expect(back.pathname).toBe('/unsubscribe');
    expect(back.searchParams.get('p')).toBe(p);
    expect(back.searchParams.get('changed')).toBe(String(subs[1]));
    expect(await left(orgId)).toEqual([{ subscription_id: subs[1], contact_id: ann, source: 'page' }]);
    const html = await (await page(domain, back.search.slice(1))).text();
    expect(html).toContain('data-testid="unsubscribe-changed"');
    expect(html).toContain(`data-testid="unsubscribe-toggle-${subs[1]}">Subscribe</button>`);
    const join = await post(domain, 'change', { p, action: 'join', after: 'changed', subscription_id: String(subs[1]) });
    expect(join.status).toBe(303);
    expect(await left(orgId)).toEqual([]);
  });
});

describe('the contact’s name and language', () => {
  it('saves both (escaped on the page), and the page then opens in the contact’s language unless ?lang= says otherwise', async () => {
    const { domain, ann, p } = await preferences('pn');
    const res = await post(domain, 'profile', { p, name: '  <b>Zoë</b> & co  ', language: 'de' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!, 'http://x');
    expect(back.searchParams.get('saved')).toBe('1');
    expect(await contactRow(ann)).toEqual({ name: '<b>Zoë</b> & co', language: 'de' });
    // The browser asks for English; the contact reads German.
    const html = await (await page(domain, back.search.slice(1), 'en')).text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('data-testid="unsubscribe-saved"');
    expect(html).toContain('value="&lt;b&gt;Zoë&lt;/b&gt; &amp; co"');
    expect(html).not.toContain('<b>Zoë</b>');
    expect(html).toContain('<option value="de" selected>Deutsch</option>');
    // The visitor's own choice wins, and the page's forms keep it.
    const french = await (await page(domain, `p=${p}&lang=fr`)).text();
    expect(french).toContain('<html lang="fr">');
    expect(french).toContain('<input type="hidden" name="lang" value="fr">');
    // Not set again: the browser's language.
    expect((await post(domain, 'profile', { p, name: 'Zoë', language: '' })).status).toBe(303);
    expect(await contactRow(ann)).toEqual({ name: 'Zoë', language: null });
    expect(await (await page(domain, `p=${p}`, 'ro')).text()).toContain('<html lang="ro">');
  });

  it('answers bad input with the page again and a message (422), changing nothing', async () => {
    const { domain, ann, p } = await preferences('pb');
    const bad = [
      { name: '', language: 'en' },
      { name: '   ', language: 'en' },
      { name: 'x'.repeat(201), language: 'en' },
      { name: 'Ann', language: 'xx' },
      { name: 'Ann' },
      { language: 'en' },
    ];
    for (const fields of bad) {
      const res = await post(domain, 'profile', { p, ...fields } as Record<string, string>);
      expect(res.status, JSON.stringify(fields)).toBe(422);
      const html = await res.text();
      expect(html).toContain('data-testid="unsubscribe-failed"');
      expect(html).toContain('Enter a name of at most 200 characters');
    }
    expect(await contactRow(ann)).toEqual({ name: 'Ann <i>Lee</i>', language: null });
    // 200 characters is the limit, not past it.
    expect((await post(domain, 'profile', { p, name: 'y'.repeat(200), language: 'zh' })).status).toBe(303);
    expect(await contactRow(ann)).toEqual({ name: 'y'.repeat(200), language: 'zh' });
  });

  it('is the contact API’s language too: read and written there, refused when not one of the eight', async () => {
    const o = await newOrg('pl');
    const created = await o.api('POST', '/contact', { name: 'Ivo', language: 'ro', addresses: [{ type: 'email', value: 'ivo@example.com' }] });
    expect(created.status).toBe(201);
    expect(created.body.data.language).toBe('ro');
    const id = created.body.data.id;
    expect((await o.api('PATCH', `/contact/${id}`, { language: 'pt' })).body.data.language).toBe('pt');
    expect((await o.api('GET', `/contact/${id}`)).body.data.language).toBe('pt');
    const refused = await o.api('PATCH', `/contact/${id}`, { language: 'klingon' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields.language).toEqual(['Choose one of the languages']);
    expect((await o.api('PATCH', `/contact/${id}`, { language: null })).body.data.language).toBeNull();
  });
});

describe('unsubscribe from everything', () => {
  it('leaves every subscription in one POST through the unsubscribe store (source page), and says so', async () => {
    const { domain, orgId, subs, ann, p } = await preferences('pa');
    await post(domain, 'change', { p, action: 'leave', subscription_id: String(subs[2]) });
    const res = await post(domain, 'leave-all', { p });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!, 'http://x');
    expect(back.searchParams.get('left_all')).toBe('1');
    expect(await left(orgId)).toEqual(subs.map((id) => ({ subscription_id: id, contact_id: ann, source: 'page' })));
    // The triggers mirror it into the memberships.
    expect((await members(ann)).map((m: any) => m.status)).toEqual(subs.map(() => 'unsubscribed'));
    const html = await (await page(domain, back.search.slice(1))).text();
    expect(html).toContain('data-testid="unsubscribe-left-all"');
    expect(html).not.toContain('data-testid="unsubscribe-leave-all"');
    for (const id of subs) expect(html).toContain(`data-testid="unsubscribe-toggle-${id}">Subscribe</button>`);
    // A repeat changes nothing and still answers.
    expect((await post(domain, 'leave-all', { p })).status).toBe(303);
    expect((await left(orgId)).length).toBe(subs.length);
  });
});

describe('a contact who signed up through a form (explicit membership)', () => {
  /** Ann made explicit: pending in News, confirmed in Offers, no row elsewhere. */
  async function signedUp(prefix: string) {
    const s = await preferences(prefix);
    await env.DB.prepare("UPDATE contacts SET membership = 'explicit' WHERE id = ?").bind(s.ann).run();
    await env.DB.prepare(
      "INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source) VALUES (?, ?, ?, 'pending', 'form'), (?, ?, ?, 'confirmed', 'form')",
    )
      .bind(s.orgId, s.subs[0], s.ann, s.orgId, s.subs[1], s.ann)
      .run();
    return s;
  }

  it('shows a pending membership as awaiting confirmation, leavable, and only confirmed ones as subscribed', async () => {
    const { domain, orgId, subs, ann, p } = await signedUp('pp');
    const html = await (await page(domain, `p=${p}`)).text();
    const item = (id: number) => new RegExp(`data-testid="unsubscribe-category-${id}">(.*?)</li>`).exec(html)![1];
    expect(item(subs[0])).toContain('<small>Awaiting confirmation</small>');
    expect(item(subs[0])).toContain('>Unsubscribe</button>');
    expect(item(subs[1])).toContain('<small>Subscribed</small>');
    expect(item(subs[2])).toContain('<small>Unsubscribed</small>');
    expect(item(subs[2])).toContain('>Subscribe</button>');
    // Joining a pending one is the confirmation mail's to do: refused here, nothing changed.
    const join = await post(domain, 'change', { p, action: 'join', subscription_id: String(subs[0]) });
    expect(join.status).toBe(422);
    expect((await members(ann))[0]).toMatchObject({ subscription_id: subs[0], status: 'pending' });
    // Leaving it goes through the store; the trigger marks the membership unsubscribed.
    expect((await post(domain, 'change', { p, action: 'leave', subscription_id: String(subs[0]) })).status).toBe(303);
    expect(await left(orgId)).toEqual([{ subscription_id: subs[0], contact_id: ann, source: 'page' }]);
    expect((await members(ann))[0]).toMatchObject({ subscription_id: subs[0], status: 'unsubscribed' });
  });

  it('joins a subscription it was never in as a confirmed member on its own word (source preferences)', async () => {
    const { domain, subs, ann, p } = await signedUp('pj');
    expect((await post(domain, 'change', { p, action: 'join', subscription_id: String(subs[2]) })).status).toBe(303);
    expect(await members(ann)).toContainEqual({ subscription_id: subs[2], status: 'confirmed', source: 'preferences' });
    const html = await (await page(domain, `p=${p}`)).text();
    expect(new RegExp(`data-testid="unsubscribe-category-${subs[2]}"><span>Events<small>Subscribed</small>`).test(html)).toBe(true);
  });
});
