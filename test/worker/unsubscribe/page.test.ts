// The public unsubscribe page as the worker serves it (src/modules/unsubscribe/page): plain html that works without
// JavaScript, in the recipient's language; its forms leave and join categories, the undo included, and redirect
// back to the page saying what happened; a broken link gets its own page; bad input changes nothing. And the
// console's files: fingerprinted assets cached for a year, the html never kept stale.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { OutgoingMessage } from '../../../src/lib/transport/types';
import { acceptedLanguage } from '../../../src/shared/languages';
import { createTemplate } from '../channel-helpers';
import { appFetch, call } from '../helpers';
import { deliverAll, runAlarm, setup, startable } from '../broadcast/run-helpers';

const BODY = '<p>Hi {{ contact.name }}</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>';

/** A broadcast sent to Ann, Cat and Dan in category "News" (the organisation also has "Offers <b>"); Ann's link. */
async function annLink(prefix: string) {
  const s = await setup(prefix);
  const offers = (await s.o.api('POST', '/subscription', { name: 'Offers <b>' })).body.data;
  const template = await createTemplate(s.o, { type: 'email', name: 'Unsub', subject: 'Hi', body: BODY });
  const id = await startable(s.o, s.body({ template_id: template.id }));
  const rec = await deliverAll(await runAlarm(s.o, id));
  const sent = rec.sent.find((m: OutgoingMessage) => m.to === 'ann@example.com')!;
  const link = new URL(/^<(.+)>$/.exec(sent.headers!['List-Unsubscribe'])![1]);
  return { ...s, offers, link, m: link.searchParams.get('m')! };
}

const org = (link: URL) => link.hostname.split('.')[0];
const page = (link: URL, query = '', language = 'en') => call(org(link), `/unsubscribe${link.search}${query}`, { headers: { 'accept-language': language } });
const post = (link: URL, fields: Record<string, string>, language = 'en') =>
  call(org(link), '/unsubscribe/change', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': language },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
const left = (orgId: number) =>
  env.DB.prepare('SELECT subscription_id, reason, comment, source FROM unsubscribes WHERE org_id = ? ORDER BY id')
    .bind(orgId)
    .all()
    .then((r) => r.results);

describe('the unsubscribe page', () => {
  it('is one small html page without scripts, asking about the email category, with reasons and the other categories', async () => {
    const { link, subscription, offers } = await annLink('pg');
    const res = await page(link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).not.toMatch(/<script|<link /i);
    expect(new TextEncoder().encode(html).length).toBeLessThan(12_000);
    expect(html).toContain(`<title>`);
    expect(html).toContain('data-testid="unsubscribe-question">Unsubscribe from &quot;News&quot;?');
    expect(html).toContain(`name="subscription_id" value="${subscription.id}"`);
    expect(html).toContain('data-testid="unsubscribe-reason-not_relevant"');
    // Names are escaped, and the other category can be left from here too.
    expect(html).toContain('Offers &lt;b&gt;');
    expect(html).not.toContain('Offers <b>');
    expect(html).toContain(`data-testid="unsubscribe-toggle-${offers.id}"`);
    expect(html).toContain('a•••@example.com');
  });

  it('leaves the category with a reason, redirects to the page saying so with an undo, and the undo joins again', async () => {
    const { link, m, o, subscription } = await annLink('pl');
    const leave = await post(link, {
      m,
      action: 'leave',
      after: 'done',
      subscription_id: String(subscription.id),
      reason: 'too_frequent',
      comment: ' Weekly is plenty ',
    });
    expect(leave.status).toBe(303);
    const back = new URL(leave.headers.get('location')!, link);
    expect(back.pathname).toBe('/unsubscribe');
    expect(back.searchParams.get('done')).toBe(String(subscription.id));
    expect(await left(o.orgId)).toEqual([{ subscription_id: subscription.id, reason: 'too_frequent', comment: 'Weekly is plenty', source: 'page' }]);
    const done = await (await page(link, `&done=${subscription.id}`)).text();
    expect(done).toContain('data-testid="unsubscribe-done"');
    expect(done).toContain('You are unsubscribed from &quot;News&quot;');
    expect(done).toContain('data-testid="unsubscribe-undo"');

    const undo = await post(link, { m, action: 'join', after: 'undone', subscription_id: String(subscription.id) });
    expect(undo.status).toBe(303);
    expect(new URL(undo.headers.get('location')!, link).searchParams.get('undone')).toBe(String(subscription.id));
    expect(await left(o.orgId)).toEqual([]);
    const undone = await (await page(link, `&undone=${subscription.id}`)).text();
    expect(undone).toContain('You are subscribed to &quot;News&quot; again.');
    // A stale "done" in the address (the recipient joined again since) is not shown as true.
    expect(await (await page(link, `&done=${subscription.id}`)).text()).not.toContain('data-testid="unsubscribe-done"');
  });

  it('leaves and joins another category from its own button', async () => {
    const { link, m, o, offers } = await annLink('pt');
    const res = await post(link, { m, action: 'leave', after: 'changed', subscription_id: String(offers.id) });
    expect(res.status).toBe(303);
    expect(await left(o.orgId)).toMatchObject([{ subscription_id: offers.id, reason: null }]);
    const html = await (await page(link, '&changed=1')).text();
    expect(html).toContain('data-testid="unsubscribe-changed"');
    expect(html).toMatch(new RegExp(`Offers &lt;b&gt;<small>Unsubscribed</small>.*data-testid="unsubscribe-toggle-${offers.id}">Subscribe<`));
    await post(link, { m, action: 'join', after: 'changed', subscription_id: String(offers.id) });
    expect(await left(o.orgId)).toEqual([]);
  });

  it('answers bad input with the page and a message (422), changing nothing, and never a 500', async () => {
    const { link, m, o, subscription } = await annLink('pb');
    const other = await setup('pb2');
    const bad: Record<string, string>[] = [
      { m, action: 'leave', subscription_id: 'abc' },
      { m, action: 'leave', subscription_id: String(other.subscription.id) },
      { m, action: 'leave', subscription_id: String(subscription.id), reason: 'bored' },
      { m, action: 'leave', subscription_id: String(subscription.id), comment: 'x'.repeat(501) },
      { m, action: 'explode', subscription_id: String(subscription.id) },
      { m, action: 'leave' },
    ];
    for (const fields of bad) {
      const res = await post(link, fields);
      expect(res.status, JSON.stringify(fields)).toBe(422);
      expect(await res.text()).toContain('data-testid="unsubscribe-failed"');
    }
    expect(await left(o.orgId)).toEqual([]);
    // Not a form at all, or no link: the broken-link page.
    const json = await call(org(link), '/unsubscribe/change', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"m":' });
    expect(json.status).toBe(404);
    expect(await json.text()).toContain('data-testid="unsubscribe-invalid"');
  });

  it('shows a broken link its own page in the recipient language, and a forged one changes nothing', async () => {
    const { link, m, o, subscription } = await annLink('pi');
    const forged = new URL(link);
    forged.searchParams.set('m', `${m.slice(0, -2)}xx`);
    const res = await page(forged, '', 'de-DE,de;q=0.9,en;q=0.5');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Dieser Link funktioniert nicht');
    expect(html).not.toMatch(/<script/i);
    expect((await post(forged, { m: forged.searchParams.get('m')!, action: 'leave', subscription_id: String(subscription.id) })).status).toBe(404);
    expect((await page(new URL(`${link.origin}/unsubscribe`))).status).toBe(404);
    expect(await left(o.orgId)).toEqual([]);
    // The working page in German, and in Chinese when that is preferred.
    expect(await (await page(link, '', 'de')).text()).toContain('data-testid="unsubscribe-confirm">Abmelden<');
    expect(await (await page(link, '', 'fr;q=0.4, zh-CN')).text()).toContain('<html lang="zh">');
  });
});

describe('the language of the page', () => {
  it('follows Accept-Language by quality, then order, and falls back to English', () => {
    expect(acceptedLanguage(undefined)).toBe('en');
    expect(acceptedLanguage('ja, ko;q=0.8')).toBe('en');
    expect(acceptedLanguage('pt-BR,pt;q=0.9')).toBe('pt');
    expect(acceptedLanguage('en;q=0.1, ro')).toBe('ro');
    expect(acceptedLanguage('ru;q=0, es')).toBe('es');
  });
});

describe("the console's files", () => {
  it('keeps fingerprinted assets a year and asks for the html again every time', async () => {
    const assets = {
      fetch: async (req: Request) => {
        const path = new URL(req.url).pathname;
        if (path === '/missing-Ab12Cd34.js') return new Response('nope', { status: 404 });
        const type = path.endsWith('.js') ? 'text/javascript' : path.endsWith('.ico') ? 'image/x-icon' : 'text/html; charset=utf-8';
        return new Response('x', { headers: { 'content-type': type, 'cache-control': 'public, max-age=0, must-revalidate' } });
      },
    } as unknown as Fetcher;
    const get = (path: string) => appFetch(new Request(`http://platform.localhost${path}`), { env: { ASSETS: assets } });
    expect((await get('/assets/index-DFTkA7qG.js')).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/contact/update/3')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/favicon.ico')).headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect((await get('/missing-Ab12Cd34.js')).headers.get('cache-control')).toBeNull();
  });
});
