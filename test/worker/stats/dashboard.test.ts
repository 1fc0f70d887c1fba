// The dashboard's counters on the Workers runtime: each written in the same D1 batch as what it counts (a
// message's outcome, a counted hit, an unsubscribe, a contact), so a redelivery or a repeat adds nothing; API
// requests summed in memory and flushed in one write; GET /dashboard reading fourteen rows and one count, for its
// own organisation only.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { countHits } from '../../../src/modules/tracking/count';
import type { TrackingHit, TrackingHitsBody } from '../../../src/modules/tracking/hit';
import { flushRequestCounts } from '../../../src/modules/stats/requests';
import { dayOf } from '../../../src/modules/stats/daily';
import { createTemplate } from '../channel-helpers';
import { appFetch, call, ledgerSql } from '../helpers';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const TODAY = 'SELECT * FROM org_daily_stats WHERE org_id = ? AND day = ?';
/**
 * The organisation's day as the dashboard adds it up: D1's figures (requests, contacts, unsubscribes) and its ledger's
 * (messages sent and failed, opens and clicks: src/modules/ledger), each written by its own store only.
 */
async function row(orgId: number): Promise<Record<string, number> | null> {
  const [d1, ledger] = await Promise.all([
    env.DB.prepare(TODAY).bind(orgId, dayOf()).first<Record<string, number>>(),
    (await ledgerSql(orgId)).prepare(TODAY).bind(orgId, dayOf()).first<Record<string, number>>(),
  ]);
  if (!d1 || !ledger) return d1 ?? ledger;
  const sum: Record<string, number> = { ...d1 };
  for (const [key, value] of Object.entries(ledger)) if (typeof value === 'number' && key !== 'org_id') sum[key] = (d1[key] ?? 0) + value;
  return sum;
}

describe('daily counters', () => {
  it('count sent and failed messages once, however often a batch is delivered', async () => {
    const s = await setup('ds');
    const id = await startable(s.o, s.body());
    const pages = await runAlarm(s.o, id);
    await deliverAll(pages, [
      { ok: true, externalId: 'a' },
      { ok: false, retryable: false, error: '550 no such user' },
      { ok: true, externalId: 'c' },
    ]);
    // The queue delivers the same batch again: the rows are no longer held, nothing is counted twice.
    await deliverAll(pages);
    expect(await row(s.o.orgId)).toMatchObject({ emails_sent: 2, sms_sent: 0, messages_failed: 1 });
    const sms = await startable(s.o, s.body({ type: 'phone', sender_id: s.ch.phone.id, template_id: s.text.id, name: 'Text' }));
    await deliverAll(await runAlarm(s.o, sms));
    expect(await row(s.o.orgId)).toMatchObject({ emails_sent: 2, sms_sent: 2, messages_failed: 1 });
  });

  it('count opens and clicks (people and all) as the hits are counted, and unsubscribes once', async () => {
    const s = await setup('dt');
    const template = await createTemplate(s.o, {
      type: 'email',
      name: 'Link',
      subject: 'Hi',
      body: '<p><a href="https://shop.example.com/a">A</a> <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    });
    const id = await startable(s.o, s.body({ template_id: template.id }));
    const rec = await deliverAll(await runAlarm(s.o, id));
    await (await ledgerSql(s.o.orgId)).prepare("UPDATE messages SET sent_at = '2026-01-01T00:00:00.000Z' WHERE broadcast_id = ?").bind(id).run();
    const hits: TrackingHit[] = [];
    const queue = { send: async (body: TrackingHitsBody) => void hits.push(...body.hits) } as unknown as Queue;
    const ann = rec.sent.find((m) => m.to === 'ann@example.com')!.body;
    const urls = [...ann.matchAll(/(?:href|src)="(http[^"]*\/t\/[oc]\/[^"]+)"/g)].map((m) => m[1]);
    const [, link, pixel] = urls;
    for (const [url, ua] of [
      [pixel, CHROME],
      [pixel, CHROME],
      [link, CHROME],
      [pixel, ''],
    ] as const) {
      await appFetch(new Request(url, { headers: { 'user-agent': ua, 'cf-connecting-ip': '203.0.113.9' }, redirect: 'manual' }), {
        env: { EVENTS_QUEUE: queue },
        settle: true,
      });
    }
    await countHits(E, createDb(E.DB), hits);
    await countHits(E, createDb(E.DB), hits);
    // Four hits of one recipient: three open hits and a click, counted once as a recipient who opened and clicked.
    expect(await row(s.o.orgId)).toMatchObject({
      opens: 3,
      human_opens: 2,
      clicks: 1,
      human_clicks: 1,
      opened: 1,
      human_opened: 1,
      clicked: 1,
      human_clicked: 1,
    });
    // A click alone opens too (the image may be blocked): Dan clicked without loading the image.
    const dan = rec.sent.find((m) => m.to === 'dan@example.com')!.body;
    const [, danLink] = [...dan.matchAll(/(?:href|src)="(http[^"]*\/t\/[oc]\/[^"]+)"/g)].map((m) => m[1]);
    const more: TrackingHit[] = [];
    const moreQueue = { send: async (body: TrackingHitsBody) => void more.push(...body.hits) } as unknown as Queue;
    await appFetch(new Request(danLink, { headers: { 'user-agent': CHROME, 'cf-connecting-ip': '203.0.113.10' }, redirect: 'manual' }), {
      env: { EVENTS_QUEUE: moreQueue },
      settle: true,
    });
    await countHits(E, createDb(E.DB), more);
    expect(await row(s.o.orgId)).toMatchObject({ opens: 3, clicks: 2, opened: 2, human_opened: 2, clicked: 2, human_clicked: 2 });
    // The dashboard says the same as the broadcast: two recipients opened.
    const dashboard = (await s.o.api('GET', '/dashboard')).body.data;
    expect(dashboard.week).toMatchObject({ human_opened: 2, opened: 2, human_clicked: 2 });
    expect((await s.o.api('GET', `/broadcast/${id}`)).body.data.engagement).toMatchObject({ human_opens_unique: 2, human_clicks_unique: 2 });

    const unsubscribe = rec.sent.find((m) => m.to === 'cat@example.com')!.headers!['List-Unsubscribe'].slice(1, -1);
    const m = new URL(unsubscribe).searchParams.get('m');
    for (let i = 0; i < 2; i++) {
      const res = await call(s.o.org, '/api/v1/unsubscribe', { method: 'POST', json: { m, subscription_id: s.subscription.id } });
      expect(res.status).toBe(200);
    }
    expect(await row(s.o.orgId)).toMatchObject({ unsubscribes: 1 });
  });

  it('count contacts created and deleted, one by one and in bulk', async () => {
    const s = await setup('dc');
    const made = await s.o.api('POST', '/contact', { name: 'Eve', addresses: [{ type: 'email', value: 'eve@example.com' }] });
    expect(made.status).toBe(201);
    await s.o.api('POST', '/contact', { name: 'Fay', addresses: [{ type: 'email', value: 'fay@example.com' }] });
    expect((await s.o.api('DELETE', `/contact/${made.body.data.id}`)).status).toBe(200);
    expect((await s.o.api('DELETE', '/contact', { ids: [s.people.ann, s.people.bob] })).status).toBe(200);
    expect(await row(s.o.orgId)).toMatchObject({ contacts_created: 2, contacts_deleted: 3 });
  });
});

describe('GET /dashboard', () => {
  it('answers fourteen days with this week beside the last, contacts at the end of each day, requests after a flush', async () => {
    const s = await setup('dd');
    const other = await setup('de');
    await s.o.api('POST', '/contact', { name: 'Gil', addresses: [{ type: 'email', value: 'gil@example.com' }] });
    // An earlier day's row: last week.
    const lastWeek = dayOf(Date.now() - 9 * 86_400_000);
    await env.DB.prepare('INSERT INTO org_daily_stats (org_id, day, emails_sent, contacts_created) VALUES (?, ?, 40, 2)').bind(s.o.orgId, lastWeek).run();
    const id = await startable(s.o, s.body());
    await deliverAll(await runAlarm(s.o, id));
    for (let i = 0; i < 3; i++) await s.o.api('GET', '/tag');
    await flushRequestCounts(createDb(E.DB));

    const res = await s.o.api('GET', '/dashboard');
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.days).toHaveLength(14);
    expect(d.days[13].day).toBe(dayOf());
    expect(d.days.find((x: { day: string }) => x.day === lastWeek)).toMatchObject({ emails_sent: 40 });
    expect(d.week).toMatchObject({ emails_sent: 3, contacts_created: 1 });
    expect(d.previous_week).toMatchObject({ emails_sent: 40, contacts_created: 2 });
    expect(d.week.requests).toBeGreaterThanOrEqual(4);
    expect(d.week.request_bytes).toBeGreaterThan(0);
    // Five contacts now (four from the set-up, written straight into D1, and Gil); one created today.
    expect(d.contacts_total).toBe(5);
    expect(d.days[13].contacts_total).toBe(5);
    expect(d.days[12].contacts_total).toBe(4);

    // The other organisation sees its own figures only.
    const theirs = (await other.o.api('GET', '/dashboard')).body.data;
    expect(theirs.week.emails_sent).toBe(0);
    expect(theirs.previous_week.emails_sent).toBe(0);
    expect(theirs.contacts_total).toBe(4);
    expect((await call(s.o.org, '/api/v1/dashboard')).status).toBe(401);
  });
});
