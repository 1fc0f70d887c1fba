// Unsubscribing on the Workers runtime: the signed link each broadcast email carries, RFC 8058 one-click POSTs
// as mail providers send them, the public page's API (which a GET never changes), undo, the console's
// re-subscribe, tenancy and the rate limit, and a contact who leaves after their page of a broadcast was queued
// is skipped, not sent.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { OutgoingMessage } from '../../../src/lib/transport/types';
import { unsubscribeUrl } from '../../../src/lib/templating/unsubscribe-link';
import { SKIP_REASONS } from '../../../src/shared/contracts/broadcast';
import { UNSUBSCRIBE_LIMIT } from '../../../src/modules/unsubscribe/link';
import { createTemplate } from '../channel-helpers';
import { call, ledgerOfBroadcast, ledgerSql } from '../helpers';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';

const BODY = '<p>Hi {{ contact.name }}</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>';

/** A broadcast sent to Ann, Cat and Dan; answers each one's List-Unsubscribe link and message id. */
async function sentBroadcast(prefix: string) {
  const s = await setup(prefix);
  const template = await createTemplate(s.o, { type: 'email', name: 'Unsub', subject: 'Hi', body: BODY });
  const id = await startable(s.o, s.body({ template_id: template.id }));
  const rec = await deliverAll(await runAlarm(s.o, id));
  const linkOf = (to: string) => {
    const sent = rec.sent.find((m: OutgoingMessage) => m.to === to)!;
    const header = sent.headers!['List-Unsubscribe'];
    return new URL(/^<(.+)>$/.exec(header)![1]);
  };
  return { ...s, id, rec, linkOf };
}

const unsubscribeRows = (orgId: number) =>
  env.DB.prepare('SELECT contact_id, subscription_id, message_id, broadcast_id, reason, comment, source FROM unsubscribes WHERE org_id = ? ORDER BY contact_id')
    .bind(orgId)
    .all()
    .then((r) => r.results);
const broadcastUnsubscribes = async (id: number) =>
  (await ledgerOfBroadcast(id)).prepare('SELECT unsubscribes FROM broadcasts WHERE id = ?').bind(id).first<number>('unsubscribes');

/** A request on the link's own host (the organisation's), as a mail provider or browser sends it. */
function onLink(link: URL, path: string, init: RequestInit = {}) {
  return call(link.hostname.split('.')[0], path, init);
}

const pageApi = (link: URL, method = 'GET', json?: unknown, path = '/api/v1/unsubscribe') =>
  onLink(link, method === 'GET' ? `${path}?m=${link.searchParams.get('m')}` : path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

describe('the link in every broadcast email', () => {
  it('carries List-Unsubscribe with the signed link and List-Unsubscribe-Post for one click', async () => {
    const { rec, linkOf, o } = await sentBroadcast('ul');
    for (const sent of rec.sent as OutgoingMessage[]) {
      expect(sent.headers).toMatchObject({
        'List-Unsubscribe': expect.stringMatching(/^<http:\/\/.+\/unsubscribe\?m=[\w.-]+>$/),
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      });
      // The same link in the body, for people.
      expect(sent.body).toContain(sent.headers!['List-Unsubscribe'].slice(1, -1));
    }
    expect(linkOf('ann@example.com').hostname).toBe(`${o.org}.localhost`);
    expect(linkOf('ann@example.com').href).not.toBe(linkOf('cat@example.com').href);
  });
});

describe('RFC 8058 one-click', () => {
  it('unsubscribes from the broadcast category at once on a form-urlencoded or multipart POST, 200 with no redirect', async () => {
    const { linkOf, o, id, people, subscription } = await sentBroadcast('oc');
    const ann = linkOf('ann@example.com');
    const form = await onLink(ann, `${ann.pathname}${ann.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    });
    expect(form.status).toBe(200);
    expect(form.headers.get('location')).toBeNull();
    expect(await form.text()).toContain('unsubscribed');

    const cat = linkOf('cat@example.com');
    const multipart = new FormData();
    multipart.set('List-Unsubscribe', 'One-Click');
    const res = await onLink(cat, `${cat.pathname}${cat.search}`, { method: 'POST', body: multipart });
    expect(res.status).toBe(200);

    const rows = await unsubscribeRows(o.orgId);
    expect(rows).toEqual([
      expect.objectContaining({ contact_id: people.ann, subscription_id: subscription.id, broadcast_id: id, source: 'one_click', reason: null }),
      expect.objectContaining({ contact_id: people.cat, subscription_id: subscription.id, broadcast_id: id, source: 'one_click' }),
    ]);
    expect(await broadcastUnsubscribes(id)).toBe(2);
    // A provider retrying the POST changes nothing.
    await onLink(ann, `${ann.pathname}${ann.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(await unsubscribeRows(o.orgId)).toHaveLength(2);
    expect(await broadcastUnsubscribes(id)).toBe(2);
  });

  it("leaves only the broadcast's category when the message itself is gone (archived past its retention): the link names the broadcast", async () => {
    const { linkOf, o, id, people, subscription } = await sentBroadcast('og');
    expect((await o.api('POST', '/subscription', { name: 'Offers' })).status).toBe(201);
    const ann = linkOf('ann@example.com');
    await (await ledgerSql(o.orgId)).prepare('DELETE FROM messages WHERE broadcast_id = ? AND contact_id = ?').bind(id, people.ann).run();
    const page = await (await pageApi(ann)).json<{ data: { category: { id: number } | null } }>();
    expect(page.data.category).toMatchObject({ id: subscription.id });
    const res = await onLink(ann, `${ann.pathname}${ann.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await unsubscribeRows(o.orgId)).toEqual([
      expect.objectContaining({ contact_id: people.ann, subscription_id: subscription.id, broadcast_id: id, source: 'one_click' }),
    ]);
    expect(await broadcastUnsubscribes(id)).toBe(1);
  });

  it('refuses a POST without List-Unsubscribe=One-Click and a forged link, and a GET never unsubscribes', async () => {
    const { linkOf, o } = await sentBroadcast('og');
    const ann = linkOf('ann@example.com');
    const empty = await onLink(ann, `${ann.pathname}${ann.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'x=1',
    });
    expect(empty.status).toBe(400);
    expect((await empty.json<any>()).error.code).toBe('bad_request');
    const garbage = await onLink(ann, `${ann.pathname}${ann.search}`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      body: '--zz\r\nbroken',
    });
    expect(garbage.status).toBeLessThan(500);
    const forged = `${ann.pathname}?m=${ann.searchParams.get('m')!.slice(0, -3)}AAA`;
    const bad = await onLink(ann, forged, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(bad.status).toBe(404);
    expect((await bad.json<any>()).error.code).toBe('link_invalid');
    // Link scanners follow GETs: the page and the page's API read, never write.
    await onLink(ann, `${ann.pathname}${ann.search}`);
    expect((await pageApi(ann)).status).toBe(200);
    expect(await unsubscribeRows(o.orgId)).toEqual([]);
  });
});

describe('the public page API', () => {
  it("shows the organisation, the masked address, the broadcast's category and every category", async () => {
    const { linkOf, o, subscription } = await sentBroadcast('pa');
    const other = (await o.api('POST', '/subscription', { name: 'Offers' })).body.data;
    const res = await pageApi(linkOf('ann@example.com'));
    expect(res.status).toBe(200);
    expect((await res.json<any>()).data).toEqual({
      organization: { name: `${o.org} Inc` },
      recipient: 'a•••@example.com',
      category: { id: subscription.id, name: 'News' },
      categories: [
        { id: subscription.id, name: 'News', subscribed: true, pending: false },
        { id: other.id, name: 'Offers', subscribed: true, pending: false },
      ],
    });
  });

  it('unsubscribes with a reason and comment, undoes it, and answers bad input with 422 and a bad link with 404, changing nothing', async () => {
    const { linkOf, o, id, people, subscription } = await sentBroadcast('pb');
    const ann = linkOf('ann@example.com');
    const m = ann.searchParams.get('m')!;
    for (const [json, field] of [
      [{ m, subscription_id: 'x' }, 'subscription_id'],
      [{ m, subscription_id: subscription.id, reason: 'bored' }, 'reason'],
      [{ m, subscription_id: subscription.id, comment: 'x'.repeat(501) }, 'comment'],
      [{ subscription_id: subscription.id }, 'm'],
      [{ m, subscription_id: 999_999 }, 'subscription_id'],
    ] as const) {
      const res = await pageApi(ann, 'POST', json);
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(Object.keys((await res.json<any>()).error.fields)).toContain(field);
    }
    const notJson = await onLink(ann, '/api/v1/unsubscribe', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    expect((await notJson.json<any>()).error.code).toBe('invalid_json');
    for (const token of [`${m.slice(0, -2)}xx`, 'nope', m.replace(/^[^.]+/, btoa('{"o":1,"c":1}'))]) {
      const res = await pageApi(ann, 'POST', { m: token, subscription_id: subscription.id });
      expect(res.status).toBe(404);
      expect((await res.json<any>()).error).toMatchObject({ code: 'link_invalid' });
    }
    expect(await unsubscribeRows(o.orgId)).toEqual([]);

    const done = await pageApi(ann, 'POST', { m, subscription_id: subscription.id, reason: 'too_frequent', comment: '  Twice a day is a lot ' });
    expect(done.status).toBe(200);
    expect((await done.json<any>()).data.categories).toEqual([{ id: subscription.id, name: 'News', subscribed: false, pending: false }]);
    expect(await unsubscribeRows(o.orgId)).toEqual([
      expect.objectContaining({
        contact_id: people.ann,
        subscription_id: subscription.id,
        broadcast_id: id,
        reason: 'too_frequent',
        comment: 'Twice a day is a lot',
        source: 'page',
      }),
    ]);
    expect(await broadcastUnsubscribes(id)).toBe(1);
    const report = await o.api('GET', `/broadcast/${id}/unsubscribes`);
    expect(report.body.data).toEqual([
      expect.objectContaining({ contact_id: people.ann, subscription_name: 'News', reason: 'too_frequent', comment: 'Twice a day is a lot' }),
    ]);

    const undo = await pageApi(ann, 'POST', { m, subscription_id: subscription.id }, '/api/v1/unsubscribe/resubscribe');
    expect(undo.status).toBe(200);
    expect((await undo.json<any>()).data.categories[0].subscribed).toBe(true);
    expect(await unsubscribeRows(o.orgId)).toEqual([]);
    expect(await broadcastUnsubscribes(id)).toBe(0);
  });

  it('keeps organisations apart: a link names its own organisation and contact whatever host or body says', async () => {
    const a = await sentBroadcast('ta');
    const b = await sentBroadcast('tb');
    // Org B's category with org A's link: unknown to A, so 422 and nothing written anywhere.
    const res = await pageApi(a.linkOf('ann@example.com'), 'POST', {
      m: a.linkOf('ann@example.com').searchParams.get('m'),
      subscription_id: b.subscription.id,
    });
    expect(res.status).toBe(422);
    // Org A's link on org B's host still acts on org A's contact only.
    const bHost = b.linkOf('ann@example.com');
    const cross = await onLink(bHost, '/api/v1/unsubscribe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ m: a.linkOf('ann@example.com').searchParams.get('m'), subscription_id: a.subscription.id }),
    });
    expect(cross.status).toBe(200);
    expect(await unsubscribeRows(a.o.orgId)).toEqual([expect.objectContaining({ contact_id: a.people.ann })]);
    expect(await unsubscribeRows(b.o.orgId)).toEqual([]);
    // A link signed for a contact of another organisation is no link at all.
    const mixed = await unsubscribeUrl(E, a.o.org, { orgId: a.o.orgId, contactId: b.people.ann, messageId: null });
    expect((await pageApi(new URL(mixed))).status).toBe(404);
    // The console's opt-out list of another organisation's contact is a 404.
    expect((await a.o.api('GET', `/contact/${b.people.ann}/unsubscribes`)).status).toBe(404);
    expect((await a.o.api('DELETE', `/contact/${b.people.ann}/unsubscribes/${b.subscription.id}`)).status).toBe(404);
  });

  it('limits requests from one address: 429 with Retry-After past the limit', async () => {
    const { linkOf } = await sentBroadcast('rl');
    const ann = linkOf('ann@example.com');
    const headers = { 'cf-connecting-ip': '198.51.100.99' };
    const statuses: number[] = [];
    for (let i = 0; i <= UNSUBSCRIBE_LIMIT.max; i++)
      statuses.push((await onLink(ann, `/api/v1/unsubscribe?m=${ann.searchParams.get('m')}`, { headers })).status);
    expect(statuses.slice(0, UNSUBSCRIBE_LIMIT.max).every((s) => s === 200)).toBe(true);
    const limited = await onLink(ann, `/api/v1/unsubscribe?m=${ann.searchParams.get('m')}`, { headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await onLink(ann, `/api/v1/unsubscribe?m=${ann.searchParams.get('m')}`, { headers: { 'cf-connecting-ip': '198.51.100.100' } })).status).toBe(200);
  });
});

describe('the console', () => {
  it("lists a contact's unsubscribes and re-subscribes them, recorded in the activity log", async () => {
    const { linkOf, o, people, subscription, id } = await sentBroadcast('cs');
    const ann = linkOf('ann@example.com');
    await pageApi(ann, 'POST', { m: ann.searchParams.get('m'), subscription_id: subscription.id, reason: 'other', comment: 'moving' });
    const list = await o.api('GET', `/contact/${people.ann}/unsubscribes`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual({
      unsubscribes: [
        expect.objectContaining({
          subscription_id: subscription.id,
          subscription_name: 'News',
          reason: 'other',
          comment: 'moving',
          source: 'page',
          broadcast_id: id,
        }),
      ],
      sms_opt_outs: [],
      suppressions: [],
    });
    expect((await o.api('DELETE', `/contact/${people.ann}/unsubscribes/abc`)).status).toBe(404);
    expect((await o.api('DELETE', `/contact/${people.cat}/unsubscribes/${subscription.id}`)).status).toBe(404);
    expect((await o.api('DELETE', `/contact/${people.ann}/unsubscribes/${subscription.id}`)).status).toBe(204);
    expect((await o.api('GET', `/contact/${people.ann}/unsubscribes`)).body.data.unsubscribes).toEqual([]);
    expect(await broadcastUnsubscribes(id)).toBe(0);
    const log = await env.DB.prepare("SELECT field, previous_value, new_value FROM activity_log WHERE org_id = ? AND entity = 'contact' AND entity_id = ?")
      .bind(o.orgId, people.ann)
      .all();
    expect(log.results).toEqual([{ field: 'subscription: News', previous_value: 'unsubscribed', new_value: 'subscribed' }]);
  });
});

describe('at send time', () => {
  it('skips, and does not send to, a contact who unsubscribed after their page of the broadcast was queued', async () => {
    const s = await setup('st');
    const id = await startable(s.o, s.body());
    const pages = await runAlarm(s.o, id);
    // Dan leaves the category (another message's link) between queueing and sending.
    const link = new URL(await unsubscribeUrl(E, s.o.org, { orgId: s.o.orgId, contactId: s.people.dan, messageId: null }));
    expect((await pageApi(link, 'POST', { m: link.searchParams.get('m'), subscription_id: s.subscription.id })).status).toBe(200);
    const rec = await deliverAll(pages);
    expect(rec.sent.map((m: OutgoingMessage) => m.to).sort()).toEqual(['ann@example.com', 'cat@example.com']);
    const dan = await (await ledgerSql(s.o.orgId))
      .prepare('SELECT status, error FROM messages WHERE broadcast_id = ? AND contact_id = ?')
      .bind(id, s.people.dan)
      .first();
    expect(dan).toMatchObject({ status: 'skipped', error: SKIP_REASONS.unsubscribed });
    // Bob (no email address) was skipped when the page was made; Dan just before sending.
    expect(await (await ledgerOfBroadcast(id)).prepare('SELECT skipped, sent FROM broadcasts WHERE id = ?').bind(id).first()).toMatchObject({
      skipped: 2,
      sent: 2,
    });
  });
});
