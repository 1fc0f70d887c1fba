// Open and click tracking end to end on the Workers runtime: a broadcast sent through the real consumer (with a
// recording transport) carries the pixel, the click redirects and the honeypot; hitting them through the worker
// answers at once and puts the hit on the events queue (recorded here), and the real counting consumer turns
// the hits into the message's, the broadcast's and the links' figures, once per hit however often it runs.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import worker from '../../../src/index';
import type { OutgoingMessage } from '../../../src/lib/transport/types';
import { hashAddress } from '../../../src/modules/tracking/address-hash';
import { countHits } from '../../../src/modules/tracking/count';
import type { TrackingHit, TrackingHitsBody } from '../../../src/modules/tracking/hit';
import { assembleTracking, signLinks } from '../../../src/modules/tracking/assemble';
import { compileTracking } from '../../../src/modules/tracking/compile';
import { countSpilledHits, SPILL_PREFIX, spillHits } from '../../../src/modules/tracking/spill';
import { clickToken, openToken, readClickToken, readLinkClick } from '../../../src/modules/tracking/tokens';
import { messageToken } from '../../../src/lib/templating/unsubscribe-link';
import { createTemplate } from '../channel-helpers';
import { appFetch, ledgerOfMessage, ledgerSql } from '../helpers';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const LINKS_BODY =
  '<html><body><p>Hi {{ contact.name }}</p><p><a href="https://shop.example.com/a?x=1&amp;y=2">A</a> <a href="mailto:help@example.com">mail</a> ' +
  '<a href="tel:+15550000000">call</a> <a href="#top">top</a> <a href="{{ unsubscribe_url }}">Unsubscribe</a> <a href="https://shop.example.com/b">B</a></p></body></html>';

/** The events queue, recorded: what the tracking endpoints put on it. */
function recordingQueue() {
  const hits: TrackingHit[] = [];
  const queue = { send: async (body: TrackingHitsBody) => void hits.push(...body.hits) } as unknown as Queue;
  return { hits, queue };
}

/** The policy of the pixel and the redirect, which are never pages (src/middleware/security-headers.ts). */
const NON_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** A hit on a tracking URL as a mail client would make it; `cf` as Cloudflare fills it in. */
async function visit(
  url: string,
  queue: Queue,
  init: { method?: string; ua?: string | null; ip?: string; cf?: { asn?: number; asOrganization?: string } } = {},
) {
  const headers: Record<string, string> = { 'cf-connecting-ip': init.ip ?? '203.0.113.7' };
  if (init.ua !== null) headers['user-agent'] = init.ua ?? CHROME;
  const req = new Request(url, { method: init.method ?? 'GET', headers, redirect: 'manual', cf: init.cf } as RequestInit);
  return appFetch(req, { env: { EVENTS_QUEUE: queue }, settle: true });
}

/** What a click URL (/t/c/<message>/<link>, or /t/c/<token> for a personalised link) names. */
function readClickUrl(url: string) {
  const [first, second] = url.split('/t/c/')[1].split('/');
  return second === undefined ? readClickToken(E, first) : readLinkClick(E, first, second);
}

const trackingUrls = (html: string) => [...html.matchAll(/(?:href|src)="(https?:\/\/[^"]*\/t\/[oc]\/[^"]+)"/g)].map((m) => m[1]);

/** A broadcast with links sent to Ann, Cat and Dan; answers the sent html by address and the message ids. */
async function sentBroadcast(extra: Record<string, unknown> = {}) {
  const s = await setup('tr');
  const template = await createTemplate(s.o, { type: 'email', name: 'Links', subject: 'Hi', body: LINKS_BODY });
  const id = await startable(s.o, s.body({ template_id: template.id, ...extra }));
  const rec = await deliverAll(await runAlarm(s.o, id));
  const byAddress = new Map(rec.sent.map((m: OutgoingMessage) => [m.to, m]));
  const rows = await (await ledgerSql(s.o.orgId))
    .prepare('SELECT id, to_address FROM messages WHERE broadcast_id = ? AND status = ?')
    .bind(id, 'sent')
    .all<{ id: number; to_address: string }>();
  const messageOf = new Map(rows.results.map((r) => [r.to_address, r.id]));
  // Hits long after sending: the "too soon" signal is tested on its own.
  await (await ledgerSql(s.o.orgId)).prepare("UPDATE messages SET sent_at = '2026-01-01T00:00:00.000Z' WHERE broadcast_id = ?").bind(id).run();
  return { ...s, id, byAddress, messageOf };
}

const messageRow = async (id: number) =>
  (await ledgerOfMessage(id))
    .prepare(
      'SELECT opens_total, opens_unique, clicks_total, clicks_unique, human_opens, human_clicks, opened_at IS NOT NULL AS opened, human_clicked_at IS NOT NULL AS human_clicked FROM messages WHERE id = ?',
    )
    .bind(id)
    .first();

describe('tracking in the sent html', () => {
  it('rewrites web links (not the unsubscribe link, mailto:, tel: or anchors), adds the honeypot first and the pixel last', async () => {
    const { byAddress, o } = await sentBroadcast();
    const ann = byAddress.get('ann@example.com')!;
    const html = ann.body;
    expect(html).not.toContain('https://shop.example.com/a');
    expect(html).toContain('href="mailto:help@example.com"');
    expect(html).toContain('href="tel:+15550000000"');
    expect(html).toContain('href="#top"');
    expect(html).toMatch(new RegExp(`href="http://${o.org}\\.localhost:8787/unsubscribe\\?m=`));
    const urls = trackingUrls(html);
    // honeypot, link A, link B, pixel
    expect(urls).toHaveLength(4);
    expect(html.indexOf('aria-hidden="true"')).toBeLessThan(html.indexOf('<p>Hi Ann</p>'));
    expect(html.lastIndexOf('/t/o/')).toBeGreaterThan(html.lastIndexOf('/t/c/'));
    const refs = await Promise.all(urls.filter((u) => u.includes('/t/c/')).map(readClickUrl));
    expect(refs.map((r) => [r!.linkIndex, r!.url, r!.honeypot])).toEqual([
      [-1, `http://${o.org}.localhost:8787/`, true],
      [0, 'https://shop.example.com/a?x=1&y=2', false],
      [1, 'https://shop.example.com/b', false],
    ]);
    // RFC 8058: both headers, on the recipient's own signed link.
    expect(ann.headers).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(ann.headers!['List-Unsubscribe']).toMatch(/^<http:\/\/.*\/unsubscribe\?m=.+>$/);
  });

  it('adds nothing when the broadcast turns tracking off', async () => {
    const { byAddress } = await sentBroadcast({ track_opens: false, track_clicks: false });
    const html = byAddress.get('ann@example.com')!.body;
    expect(trackingUrls(html)).toEqual([]);
    expect(html).toContain('href="https://shop.example.com/a?x=1&amp;y=2"');
  });

  it("follows the organisation's defaults when the broadcast says nothing", async () => {
    const s = await setup('trd');
    await env.DB.prepare('UPDATE organizations SET track_clicks = 0 WHERE id = ?').bind(s.o.orgId).run();
    const res = await s.o.api('POST', '/broadcast', s.body({ delayed_at: new Date(Date.now() + 3_600_000).toISOString() }));
    expect(res.body.data).toMatchObject({ track_opens: true, track_clicks: false });
  });

  it('keeps the html of a fragment whole and tracked', async () => {
    const compiled = await compileTracking('<p><a href="https://x.example/">x</a></p>', { opens: true, clicks: true }, false);
    const signed = await signLinks(E, compiled, { broadcastId: null, messageId: 2, origin: 'https://o.example' });
    const token = await messageToken(E, { orgId: 1, contactId: null, messageId: 2 });
    const { html } = await assembleTracking(
      E,
      { html: compiled.html, text: compiled.text },
      { orgId: 1, messageId: 2, origin: 'https://o.example', token, unsubscribeUrl: null, signed },
    );
    expect(html).toMatch(/^<a\nhref="https:\/\/o\.example\/t\/c\/[^"]+" style="display:none/);
    expect(html).toMatch(/<p><a\nhref="https:\/\/o\.example\/t\/c\/[^"]+">x<\/a><\/p><img\nsrc="https:\/\/o\.example\/t\/o\/[^"]+"/);
  });
});

describe('the tracking endpoints', () => {
  it('answer the pixel with no caching and redirect a click to its own URL, queueing each hit with what the request says', async () => {
    const { queue, hits } = recordingQueue();
    const open = await openToken(E, { orgId: 5, messageId: 9 });
    const pixel = await visit(`http://x.localhost:8787/t/o/${open}`, queue, { cf: { asn: 714, asOrganization: 'Apple Inc.' } });
    expect(pixel.status).toBe(200);
    expect(pixel.headers.get('content-type')).toBe('image/gif');
    expect(pixel.headers.get('cache-control')).toContain('no-store');
    const image = new Uint8Array(await pixel.arrayBuffer());
    expect(new TextDecoder().decode(image.slice(0, 6))).toBe('GIF89a');
    expect(image.length).toBeLessThan(50);
    const click = await clickToken(E, { orgId: 5, messageId: 9, linkIndex: 0, url: 'https://shop.example.com/a', honeypot: false });
    const redirect = await visit(`http://x.localhost:8787/t/c/${click}`, queue, { method: 'HEAD', ua: null });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://shop.example.com/a');
    expect(redirect.headers.get('referrer-policy')).toBe('no-referrer');
    // Built in one step, with the policy of answers that are never pages (src/middleware/security-headers.ts):
    // opened as a page, neither may load anything or be framed.
    for (const res of [pixel, redirect]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(res.headers.get('content-security-policy')).toBe(NON_PAGE_CSP);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    expect(pixel.headers.get('referrer-policy')).toBe('no-referrer');
    expect(hits).toMatchObject([
      { o: 5, m: 9, kind: 'open', method: 'GET', ua: CHROME, asn: 714, aso: 'Apple Inc.' },
      { o: 5, m: 9, kind: 'click', l: 0, u: 'https://shop.example.com/a', method: 'HEAD', ua: null },
    ]);
    // The address goes to the consumer, which keeps only a hash of it (see "counting").
    expect(hits[0].address).toBe('203.0.113.7');
    // Over https, HSTS as on every answer.
    const secure = await visit(`https://x.example.com/t/o/${open}`, queue);
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(secure.headers.get('content-security-policy')).toBe(NON_PAGE_CSP);
  });

  it('answer a tampered, foreign or malformed token with a 404 that redirects nowhere, and queue nothing', async () => {
    const { queue, hits } = recordingQueue();
    const click = await clickToken(E, { orgId: 5, messageId: 9, linkIndex: 0, url: 'https://shop.example.com/a', honeypot: false });
    const [payload, signature] = click.split('.');
    const evil = btoa(JSON.stringify({ t: 'c', o: 5, m: 9, l: 0, u: 'https://evil.example/', k: 'test1' }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    const open = await openToken(E, { orgId: 5, messageId: 9 });
    for (const token of [`${evil}.${signature}`, `${payload}.${signature.slice(0, -2)}AA`, 'nonsense', `${payload}`, open]) {
      const res = await visit(`http://x.localhost:8787/t/c/${token}`, queue);
      expect(res.status, token).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
    expect((await visit(`http://x.localhost:8787/t/o/${click}`, queue)).status).toBe(404);
    expect(hits).toEqual([]);
  });
});

describe('counting', () => {
  it('counts opens and clicks per message, broadcast and link, people apart from machines, and a redelivery changes nothing', async () => {
    const { o, id, byAddress, messageOf } = await sentBroadcast();
    const { queue, hits } = recordingQueue();
    const urlsOf = (address: string) => trackingUrls(byAddress.get(address)!.body);
    const [, annA, annB, annPixel] = urlsOf('ann@example.com');
    const [, , , catPixel] = urlsOf('cat@example.com');
    const [, danA] = urlsOf('dan@example.com');
    await visit(annPixel, queue, { ip: '198.51.100.1' });
    await visit(annPixel, queue, { ip: '198.51.100.1' });
    await visit(annA, queue, { ip: '198.51.100.1' });
    await visit(annB, queue, { ip: '198.51.100.1' });
    await visit(annA, queue, { ip: '198.51.100.2' });
    await visit(catPixel, queue, { ua: 'Mozilla/5.0', cf: { asn: 714, asOrganization: 'Apple Inc.' } });
    await visit(danA, queue, { cf: { asn: 8075, asOrganization: 'Microsoft Corporation' } });
    expect(hits).toHaveLength(7);
    const db = createDb(E.DB);
    await countHits(E, db, hits.slice(0, 3));
    await countHits(E, db, hits.slice(3));
    // The queue delivers at least once: the same hits again count nothing.
    await countHits(E, db, hits);

    expect(await messageRow(messageOf.get('ann@example.com')!)).toEqual({
      opens_total: 2,
      opens_unique: 1,
      clicks_total: 3,
      clicks_unique: 1,
      human_opens: 2,
      human_clicks: 3,
      opened: 1,
      human_clicked: 1,
    });
    expect(await messageRow(messageOf.get('cat@example.com')!)).toEqual({
      opens_total: 1,
      opens_unique: 1,
      clicks_total: 0,
      clicks_unique: 0,
      human_opens: 0,
      human_clicks: 0,
      opened: 1,
      human_clicked: 0,
    });
    // Dan's gateway clicked: an open and a click for "all", nothing for people.
    expect(await messageRow(messageOf.get('dan@example.com')!)).toEqual({
      opens_total: 0,
      opens_unique: 1,
      clicks_total: 1,
      clicks_unique: 1,
      human_opens: 0,
      human_clicks: 0,
      opened: 1,
      human_clicked: 0,
    });

    const view = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(view.engagement).toEqual({
      opens: 3,
      opens_unique: 3,
      human_opens: 2,
      human_opens_unique: 1,
      clicks: 4,
      clicks_unique: 2,
      human_clicks: 3,
      human_clicks_unique: 1,
      unsubscribes: 0,
      bounces: 0,
      complaints: 0,
      undelivered: 0,
    });
    const clicks = (await o.api('GET', `/broadcast/${id}/clicks`)).body.data;
    expect(clicks).toEqual([
      { link_index: 0, url: 'https://shop.example.com/a?x=1&y=2', clicks: 3, clicks_unique: 2, human_clicks: 2, human_clicks_unique: 1 },
      { link_index: 1, url: 'https://shop.example.com/b', clicks: 1, clicks_unique: 1, human_clicks: 1, human_clicks_unique: 1 },
    ]);
    const engagement = (await o.api('GET', `/message/${messageOf.get('ann@example.com')}/engagement`)).body.data;
    expect(engagement.links.map((l: { url: string; clicks: number }) => [l.url, l.clicks])).toEqual([
      ['https://shop.example.com/a?x=1&y=2', 2],
      ['https://shop.example.com/b', 1],
    ]);
    expect(engagement.hits).toHaveLength(5);
    const stored = await (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM tracking_events WHERE org_id = ?').bind(o.orgId).first<{ n: number }>();
    expect(stored!.n).toBe(7);
    // Client addresses are never stored: a keyed hash tells them apart (the same address, the same hash).
    const hashes = (
      await (await ledgerSql(o.orgId)).prepare('SELECT ip_hash FROM tracking_events WHERE org_id = ? ORDER BY at').bind(o.orgId).all<{ ip_hash: string }>()
    ).results.map((r) => r.ip_hash);
    for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(hashes[0]).toBe(hashes[1]);
    expect(new Set(hashes).size).toBe(3);
    const rows = JSON.stringify((await (await ledgerSql(o.orgId)).prepare('SELECT * FROM tracking_events WHERE org_id = ?').bind(o.orgId).all()).results);
    for (const address of ['198.51.100.1', '198.51.100.2', '203.0.113.7']) expect(rows).not.toContain(address);
  });

  it('takes back what a later honeypot click exposes', async () => {
    const { o, id, byAddress, messageOf } = await sentBroadcast();
    const { queue, hits } = recordingQueue();
    const [honeypot, annA] = trackingUrls(byAddress.get('ann@example.com')!.body);
    await visit(annA, queue);
    await countHits(E, createDb(E.DB), hits);
    expect((await o.api('GET', `/broadcast/${id}`)).body.data.engagement).toMatchObject({ clicks: 1, human_clicks: 1, human_clicks_unique: 1 });
    await visit(honeypot, queue);
    await countHits(E, createDb(E.DB), hits);
    expect((await o.api('GET', `/broadcast/${id}`)).body.data.engagement).toMatchObject({
      clicks: 1,
      human_clicks: 0,
      human_clicks_unique: 0,
      human_opens_unique: 0,
      opens_unique: 1,
    });
    expect(await messageRow(messageOf.get('ann@example.com')!)).toMatchObject({ clicks_total: 1, human_clicks: 0 });
    expect((await o.api('GET', `/broadcast/${id}/clicks`)).body.data).toEqual([
      { link_index: 0, url: 'https://shop.example.com/a?x=1&y=2', clicks: 1, clicks_unique: 1, human_clicks: 0, human_clicks_unique: 0 },
    ]);
  });

  it("never counts into another organisation, and shows one organisation's figures to it alone", async () => {
    const a = await sentBroadcast();
    const b = await sentBroadcast();
    const { queue, hits } = recordingQueue();
    // A token of organisation A naming B's message (as if A's key signed it): counts nothing anywhere.
    const forged = await openToken(E, { orgId: a.o.orgId, messageId: b.messageOf.get('ann@example.com')! });
    await visit(`http://${a.o.org}.localhost:8787/t/o/${forged}`, queue);
    await countHits(E, createDb(E.DB), hits);
    expect(await messageRow(b.messageOf.get('ann@example.com')!)).toMatchObject({ opens_total: 0, opens_unique: 0 });
    expect((await a.o.api('GET', `/broadcast/${b.id}/clicks`)).status).toBe(404);
    expect((await a.o.api('GET', `/message/${b.messageOf.get('ann@example.com')}/engagement`)).status).toBe(404);
  });
});

describe('counting in parallel', () => {
  /** A broadcast's counters and the sums of its messages' own counters (which are written as absolute values). */
  async function figures(o: { orgId: number }, broadcastId: number) {
    const sums = await (await ledgerSql(o.orgId))
      .prepare(
        `SELECT sum(opens_total) AS opens, sum(opens_unique) AS opens_unique, sum(human_opens) AS human_opens, count(human_opened_at) AS human_opens_unique,
         sum(clicks_total) AS clicks, sum(clicks_unique) AS clicks_unique, sum(human_clicks) AS human_clicks, count(human_clicked_at) AS human_clicks_unique
       FROM messages WHERE broadcast_id = ? AND org_id = ?`,
      )
      .bind(broadcastId, o.orgId)
      .first<Record<string, number>>();
    const counters = await (await ledgerSql(o.orgId))
      .prepare(
        'SELECT opens, opens_unique, human_opens, human_opens_unique, clicks, clicks_unique, human_clicks, human_clicks_unique FROM broadcasts WHERE id = ?',
      )
      .bind(broadcastId)
      .first<Record<string, number>>();
    const events = await (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM tracking_events WHERE org_id = ?').bind(o.orgId).first<number>('n');
    return { sums, counters, events };
  }

  it('counts the hits of two organisations exactly when many groups of both are counted at once, each twice', async () => {
    const a = await sentBroadcast();
    const b = await sentBroadcast();
    const { queue, hits } = recordingQueue();
    for (const s of [a, b]) {
      for (const mail of s.byAddress.values()) {
        const [, linkA, linkB, pixel] = trackingUrls(mail.body);
        await visit(pixel, queue, { ip: '198.51.100.1' });
        await visit(pixel, queue, { ip: '198.51.100.2' });
        await visit(linkA, queue);
        await visit(linkB, queue);
      }
    }
    expect(hits).toHaveLength(24);
    // Groups of three, the two organisations interleaved, all counted at the same time, and every group again
    // at the same time (a redelivery racing the first delivery).
    const groups = Array.from({ length: 8 }, (_, k) => [hits[k], hits[k + 8], hits[k + 16]]);
    await Promise.all([...groups, ...groups].map((group) => countHits(E, createDb(E.DB), group)));
    for (const s of [a, b]) {
      const { sums, counters, events } = await figures(s.o, s.id);
      expect(events).toBe(12);
      expect(sums).toMatchObject({ opens: 6, clicks: 6, opens_unique: 3, clicks_unique: 3 });
      // The broadcast's counters are sums of differences: a group counted twice or against stale hits would drift from its messages.
      expect(counters).toEqual(sums);
    }
  });
});

describe('an events queue that refuses the hits', () => {
  it('keeps them in R2 after three tries, and the cron counts them once however often it runs', async () => {
    const { byAddress, messageOf } = await sentBroadcast();
    let tries = 0;
    const down = {
      send: async () => {
        tries++;
        throw new Error('Queue send failed: internal error');
      },
    } as unknown as Queue;
    const [, annA, , annPixel] = trackingUrls(byAddress.get('ann@example.com')!.body);
    const spilled = async () => (await E.FILES.list({ prefix: SPILL_PREFIX })).objects.map((o) => o.key);
    expect(await spilled()).toEqual([]);
    // The pixel and the redirect are answered as always.
    expect((await visit(annPixel, down, { ip: '198.51.100.9' })).status).toBe(200);
    expect((await visit(annA, down, { ip: '198.51.100.9' })).headers.get('location')).toBe('https://shop.example.com/a?x=1&y=2');
    expect(tries).toBe(6);
    const keys = await spilled();
    expect(keys).toHaveLength(2);
    // R2 holds the address's hash, never the address.
    for (const key of keys) {
      const text = await (await E.FILES.get(key))!.text();
      expect(text).toMatch(/"ih":"[0-9a-f]{16}"/);
      expect(text).not.toContain('198.51.100.9');
    }

    // The platform's cron counts them.
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '*/15 * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await spilled()).toEqual([]);
    const counted = { opens_total: 1, clicks_total: 1, clicks_unique: 1, opens_unique: 1 };
    expect(await messageRow(messageOf.get('ann@example.com')!)).toMatchObject(counted);
    // Hashed as the consumer hashes a queued hit: the same address is the same client for the burst signal.
    const stored = await (await ledgerOfMessage(messageOf.get('ann@example.com')!))
      .prepare('SELECT DISTINCT ip_hash, substr(at, 1, 10) AS day FROM tracking_events WHERE message_id = ?')
      .bind(messageOf.get('ann@example.com')!)
      .all<{ ip_hash: string; day: string }>();
    expect(stored.results).toHaveLength(1);
    expect(stored.results[0].ip_hash).toBe(await hashAddress(E.SECRETS_KEY, '198.51.100.9', new Date(stored.results[0].day)));
    // A run that died after counting and before deleting leaves the batch to be counted again: nothing moves.
    const { queue, hits } = recordingQueue();
    await visit(annPixel, queue);
    await spillHits(E, hits);
    await spillHits(E, hits);
    const db = createDb(E.DB);
    expect(await countSpilledHits(db, E)).toBe(2);
    expect(await messageRow(messageOf.get('ann@example.com')!)).toMatchObject({ ...counted, opens_total: 2 });
    expect(await countSpilledHits(db, E)).toBe(0);
  });
});
