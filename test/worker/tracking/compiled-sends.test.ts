// Tracking compiled once per broadcast (src/modules/tracking/compile.ts, assemble.ts) on the Workers runtime: a
// broadcast sent through the real runner and consumer (recording transport), its mails built as they go on the wire
// (buildEmail) and read back with postal-mime. Covers what a message costs (one signature whatever its links), the
// personalised links, the text alternative a person reads, the bulk-mail headers, the click tokens' pairing, and
// the one skip rule (a blacklisted address is skipped with the reason wherever it is found).
import { env } from 'cloudflare:workers';
import PostalMime from 'postal-mime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildEmail } from '../../../src/lib/mime/build';
import type { OutgoingMessage } from '../../../src/lib/transport/types';
import type { BroadcastSnapshot } from '../../../src/modules/broadcast/snapshot';
import { prepareBroadcastContent, renderMessage } from '../../../src/modules/sending/message-content';
import { readClickToken, readLinkClick } from '../../../src/modules/tracking/tokens';
import { signToken } from '../../../src/lib/crypto/signed-token';
import { messageToken, readUnsubscribeToken } from '../../../src/lib/templating/unsubscribe-link';
import { SKIP_REASONS } from '../../../src/shared/contracts/broadcast';
import { createTemplate } from '../channel-helpers';
import { appFetch, ledgerSql } from '../helpers';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';

const recordingQueue = () => ({ send: async () => {} }) as unknown as Queue;

/** A click or pixel hit as a mail client makes it. */
const visit = (url: string) =>
  appFetch(new Request(url, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 Chrome/131.0' } }), {
    env: { EVENTS_QUEUE: recordingQueue() },
    settle: true,
  });

/** What a click URL names (/t/c/<message>/<link>, or /t/c/<token> for a personalised link). */
function readClickUrl(url: string) {
  const [first, second] = url.split('/t/c/')[1].split('/');
  return second === undefined ? readClickToken(E, first) : readLinkClick(E, first, second);
}

const trackingUrls = (text: string) => [...text.matchAll(/https?:\/\/[^\s"()<>]*\/t\/[oc]\/[^\s"()<>]+/g)].map((m) => m[0]);

/** Sends a broadcast of `body` to the setup's contacts; answers the sent mails by address. */
async function sent(prefix: string, body: string, extra: Record<string, unknown> = {}) {
  const s = await setup(prefix);
  const template = await createTemplate(s.o, { type: 'email', name: 'Links', subject: 'Hi {{ contact.name }}', body });
  const id = await startable(s.o, s.body({ template_id: template.id, ...extra }));
  const rec = await deliverAll(await runAlarm(s.o, id));
  await (await ledgerSql(s.o.orgId)).prepare("UPDATE messages SET sent_at = '2026-01-01T00:00:00.000Z' WHERE broadcast_id = ?").bind(id).run();
  const byAddress = new Map(rec.sent.map((m: OutgoingMessage) => [m.to, m]));
  return { ...s, id, byAddress };
}

/** The mail as it goes on the wire, parsed back. */
async function onTheWire(m: OutgoingMessage) {
  return PostalMime.parse(
    buildEmail({
      messageId: `relay-${m.id}@example.com`,
      from: m.from,
      to: m.to,
      subject: m.subject,
      body: m.body,
      html: m.html,
      bodyPlain: m.bodyPlain,
      headers: m.headers,
    }),
  );
}

afterEach(() => vi.restoreAllMocks());

describe('the text alternative', () => {
  it('is what a person reads: its links tracked, no honeypot and no pixel', async () => {
    const { byAddress } = await sent(
      'tt',
      '<html><body><p>Hi {{ contact.name }}, see <a href="https://shop.example.com/a">the shop</a>.</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p></body></html>',
    );
    const mail = await onTheWire(byAddress.get('ann@example.com')!);
    const html = mail.html!;
    const text = mail.text!;
    const [honeypot, link, pixel] = trackingUrls(html);
    expect(html).toContain('aria-hidden="true"');
    expect((await readClickUrl(honeypot))?.honeypot).toBe(true);
    expect(pixel).toContain('/t/o/');
    expect(text.startsWith('Hi Ann, see the shop (')).toBe(true);
    expect(text).not.toContain(honeypot);
    expect(text).not.toContain(pixel);
    expect(text).not.toContain('/t/o/');
    expect(trackingUrls(text)).toEqual([link]);
    expect((await readClickUrl(link))?.url).toBe('https://shop.example.com/a');
    expect(text).toMatch(/Unsubscribe \(http:\/\/tt[^ ]*\.localhost:8787\/unsubscribe\?m=[^)]+\)/);
  });
});

describe('the html part', () => {
  it('stays 7-bit when tracking makes a one-line html longer than SMTP allows a line', async () => {
    const body = `<p>Hi {{ contact.name }}</p>${'<p>News with a <a href="https://shop.example.com/offers">link</a>.</p>'.repeat(10)}`;
    const { byAddress } = await sent('sb', body);
    const ann = byAddress.get('ann@example.com')!;
    expect(ann.body.length).toBeGreaterThan(998);
    const raw = buildEmail({ messageId: 'x@y', from: ann.from, to: ann.to, subject: ann.subject, body: ann.body, html: true, bodyPlain: ann.bodyPlain });
    const htmlPart = raw.slice(raw.indexOf('Content-Type: text/html'));
    expect(htmlPart).toMatch(/^Content-Type: text\/html; charset=UTF-8\r\nContent-Transfer-Encoding: 7bit/);
    // Each tracked link starts its line inside its tag: the page reads exactly as written.
    expect(ann.body).toMatch(/<p>News with a <a\nhref="http:\/\/sb[^"]+\/t\/c\/[^"]+">link<\/a>\.<\/p>/);
  });
});

describe('one signature per message', () => {
  it('assembles a message with 40 links with exactly one signature, and each link still redirects to its own URL', async () => {
    const links = Array.from({ length: 40 }, (_, i) => `<p><a href="https://news.example.com/story/${i}">Story ${i}</a></p>`).join('');
    const snapshot: BroadcastSnapshot = {
      template: {
        id: 1,
        name: 'News',
        type: 'email',
        subject: 'News for {{ contact.name }}',
        body: `<html><body><h1>Hi {{ contact.name }}</h1>${links}<a href="{{ unsubscribe_url }}">Unsubscribe</a></body></html>`,
        body_plain: null,
        attachments: [],
      },
      sender: { id: 1, type: 'email', value: 'news@example.com', name: null, integration_id: 1 },
      organization: { name: 'Acme', domain: 'sig' },
    };
    const content = await prepareBroadcastContent(E, { orgId: 7, broadcastId: 70, origin: 'http://sig.localhost:8787' }, snapshot, {
      opens: true,
      clicks: true,
    });
    const sign = vi.spyOn(crypto.subtle, 'sign');
    const first = await renderMessage(
      E,
      content,
      { id: 701, contactId: 11 },
      { contact: { id: 11, name: 'Ann' } as never, organization: snapshot.organization },
    );
    expect(sign).toHaveBeenCalledTimes(1);
    await renderMessage(E, content, { id: 702, contactId: 12 }, { contact: { id: 12, name: 'Bob' } as never, organization: snapshot.organization });
    expect(sign).toHaveBeenCalledTimes(2);
    const urls = trackingUrls(first.body).filter((u) => u.includes('/t/c/'));
    // The honeypot, then the 40 stories in order.
    expect(urls).toHaveLength(41);
    const refs = await Promise.all(urls.map(readClickUrl));
    expect(refs.slice(1).map((r) => [r!.messageId, r!.linkIndex, r!.url])).toEqual(
      Array.from({ length: 40 }, (_, i) => [701, i, `https://news.example.com/story/${i}`]),
    );
    expect(first.body).toContain('<h1>Hi Ann</h1>');
    expect(first.subject).toBe('News for Ann');
  });

  it("refuses a link token moved onto another broadcast's message, and a tampered one", async () => {
    const a = await sent('pa', '<p><a href="https://shop.example.com/a">A</a></p>');
    const b = await sent('pb', '<p><a href="https://shop.example.com/b">B</a></p>');
    const [, aLink] = trackingUrls(a.byAddress.get('ann@example.com')!.body);
    const [, bLink] = trackingUrls(b.byAddress.get('ann@example.com')!.body);
    expect((await visit(aLink)).headers.get('location')).toBe('https://shop.example.com/a');
    const [aMessage, aToken] = aLink.split('/t/c/')[1].split('/');
    const [bMessage, bToken] = bLink.split('/t/c/')[1].split('/');
    const origin = aLink.split('/t/c/')[0];
    const parts = aToken.split('.');
    const evil = [parts[0], parts[1], btoa('https://evil.example/').replace(/=+$/, ''), ...parts.slice(3)].join('.');
    for (const path of [
      `${aMessage}/${evil}`,
      `${aMessage}/${bToken}`,
      `${bMessage}/${aToken}`,
      `${aMessage}/${aToken.slice(0, -2)}AA`,
      `${aMessage.slice(0, -2)}AA/${aToken}`,
      `${aMessage}/${aMessage}`,
    ]) {
      const res = await visit(`${origin}/t/c/${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('location')).toBeNull();
    }
  });
});

describe('links sent before compact tokens', () => {
  it('keep working: a JSON unsubscribe token is still read', async () => {
    const old = await signToken(E.SECRETS_KEY, 'unsubscribe', { o: 3, c: 4, m: 5 });
    expect(old.split('.')).toHaveLength(2);
    expect(await readUnsubscribeToken(E, old)).toEqual({ orgId: 3, contactId: 4, messageId: 5, broadcastId: null });
    const now = await messageToken(E, { orgId: 3, contactId: 4, messageId: 5, broadcastId: 6 });
    expect(now.length).toBeLessThan(50);
    expect(await readUnsubscribeToken(E, now)).toEqual({ orgId: 3, contactId: 4, messageId: 5, broadcastId: 6 });
    expect(await readUnsubscribeToken(E, now.replace('.5.', '.7.'))).toBeNull();
  });
});

describe('personalised links', () => {
  it('redirect each recipient to their own address, in the html and the text', async () => {
    const body =
      '<p><a href="https://shop.example.com/me?e={{ contact.email | url_encode }}&amp;n={{ contact.name }}">My page</a></p>' +
      '{% for a in contact.addresses %}<p><a href="https://shop.example.com/a?v={{ a.value | url_encode }}">{{ a.type }}</a></p>{% endfor %}';
    const { byAddress } = await sent('pl', body);
    for (const [address, name, phone] of [
      ['ann@example.com', 'Ann', '+15550000001'],
      ['cat@example.com', 'Cat', null],
    ]) {
      const mail = await onTheWire(byAddress.get(address!)!);
      const own = `https://shop.example.com/me?e=${encodeURIComponent(address!)}&n=${name}`;
      const [, link, ...loop] = trackingUrls(mail.html!);
      expect((await readClickUrl(link))?.url).toBe(own);
      const res = await visit(link);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(own);
      // A link inside a loop: the same link index, each pass its own address.
      const looped = await Promise.all(loop.filter((u) => u.includes('/t/c/')).map(readClickUrl));
      const expected = [address, phone].filter(Boolean).map((v) => [1, `https://shop.example.com/a?v=${encodeURIComponent(v!)}`]);
      expect(looped.map((r) => [r!.linkIndex, r!.url])).toEqual(expected);
      expect(trackingUrls(mail.text!)).toEqual(
        trackingUrls(mail.html!)
          .filter((u) => u.includes('/t/c/'))
          .slice(1),
      );
    }
  });
});

describe('bulk-mail headers', () => {
  it('carry List-Id, Feedback-ID and Precedence beside the one-click unsubscribe', async () => {
    const { byAddress, id, o, subscription } = await sent('lh', '<p>Hello</p>');
    const headers = byAddress.get('ann@example.com')!.headers!;
    // RFC 2919: a phrase, then <list-label.namespace> under the organisation's own host.
    const org = await env.DB.prepare('SELECT name FROM organizations WHERE id = ?').bind(o.orgId).first<{ name: string }>();
    expect(headers['List-Id']).toBe(`"${org!.name}: News" <subscription-${subscription.id}.${o.org}.localhost>`);
    expect(headers['List-Id']).toMatch(/^"[^"\\]*" <[a-z0-9-]+(\.[a-z0-9-]+)+>$/);
    // Gmail's feedback loop: campaign:customer:mail type:sender id.
    expect(headers['Feedback-ID']).toBe(`${id}:${o.orgId}:broadcast:relay`);
    expect(headers['Feedback-ID']).toMatch(/^[^:\s]+:[^:\s]+:[^:\s]+:[^:\s]+$/);
    expect(headers.Precedence).toBe('bulk');
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const wire = await onTheWire(byAddress.get('ann@example.com')!);
    expect(wire.headers.find((h) => h.key === 'list-id')?.value).toBe(headers['List-Id']);
  });

  it('name the broadcast when it has no subscription (one people cannot unsubscribe from), and encode a name that is not ASCII', async () => {
    const s = await setup('ln');
    await env.DB.prepare("UPDATE organizations SET name = 'Café Müller' WHERE id = ?").bind(s.o.orgId).run();
    const id = await startable(s.o, s.body({ subscription_id: null, do_not_unsubscribe: true, name: 'Spring' }));
    const rec = await deliverAll(await runAlarm(s.o, id));
    const ann = rec.sent.find((m: OutgoingMessage) => m.to === 'ann@example.com')!;
    const wire = await onTheWire(ann);
    const listId = wire.headers.find((h) => h.key === 'list-id')!.value;
    expect(listId).toMatch(new RegExp(`<broadcast-${id}\\.${s.o.org}\\.localhost>$`));
    expect(ann.headers!['List-Unsubscribe']).toBeUndefined();
    expect(buildEmail({ messageId: 'x@y', from: ann.from, to: ann.to, subject: 's', body: 'b', headers: ann.headers })).toMatch(/\r\nList-Id: =\?UTF-8\?B\?/);
  });
});

describe('one skip rule', () => {
  it('skips a blacklisted address with the same reason whether it was blacklisted when listed or at send time', async () => {
    const s = await setup('sk');
    await env.DB.prepare("INSERT INTO blacklist (org_id, type, value) VALUES (?, 'email', 'dan@example.com')").bind(s.o.orgId).run();
    const id = await startable(s.o, s.body());
    const batches = await runAlarm(s.o, id);
    // Ann is blacklisted after her page was written, before her batch is sent.
    await env.DB.prepare("INSERT INTO blacklist (org_id, type, value) VALUES (?, 'email', 'ann@example.com')").bind(s.o.orgId).run();
    const rec = await deliverAll(batches);
    expect(rec.sent.map((m: OutgoingMessage) => m.to)).toEqual(['cat@example.com']);
    const rows = await (await ledgerSql(s.o.orgId))
      .prepare('SELECT to_address, status, error FROM messages WHERE broadcast_id = ? AND to_address IN (?, ?) ORDER BY to_address')
      .bind(id, 'ann@example.com', 'dan@example.com')
      .all();
    expect(rows.results).toEqual([
      { to_address: 'ann@example.com', status: 'skipped', error: SKIP_REASONS.blacklisted },
      { to_address: 'dan@example.com', status: 'skipped', error: SKIP_REASONS.blacklisted },
    ]);
    const view = (await s.o.api('GET', `/broadcast/${id}`)).body.data;
    expect(view).toMatchObject({ sent: 1, failed: 0 });
    expect(view.skipped).toBeGreaterThanOrEqual(3);
  });
});
