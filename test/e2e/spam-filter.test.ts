import { spawnSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newsletterHtml } from '../bench/broadcast/newsletter.mjs';
import { launchChromium } from './browser';
import { apiFromPage, eventually, signIn } from './console';

// What a standard spam filter makes of a broadcast: SpamAssassin (Debian's package, with the rules it ships; `npm
// test` installs it as it installs Chromium) reads tracked broadcasts as the mail catcher caught them, with local
// tests only (-L: no DNS or network lists, which judge the sending domain and IP, not the mail). No rule the
// platform controls may hit: headers, MIME structure, list headers, URLs. Rules that judge what the author wrote
// are reported, not failed; so are the few that only a local platform trips (wrangler dev's port in every URL, a
// mail that crossed no relay). Skipped, and saying so, where spamassassin is not installed.
const baseUrl = inject('baseUrl');
const mailUrl = inject('mailUrl');
const RUN = Date.now().toString(36);

const spamassassin = spawnSync('spamassassin', ['--version'], { encoding: 'utf8' });
const available = spamassassin.status === 0;
if (!available) console.warn('spam-filter: skipped, spamassassin is not installed (npm test installs it with apt-get where it can)');

/** Rules that judge the author's content: the pixel counts as an image against a short text, for one. */
const AUTHORS_CONTENT = [/^HTML_IMAGE_ONLY_\d+$/, /^HTML_IMAGE_RATIO_\d+$/, /^HTML_SHORT_LINK_IMG_\d+$/];
/** Rules only a local platform trips: its URLs carry wrangler dev's port, and its mail crosses no relay. */
const LOCAL_ONLY = ['WEIRD_PORT', 'NO_RECEIVED', 'NO_RELAYS'];
/**
 * The price of reading bounces (src/modules/bounce): the envelope sender is a bounce address on the platform's
 * BOUNCE_DOMAIN, another domain than the From's, as with every sending service's default return path. Accepted only
 * when the mail's Return-Path is such an address, and printed; a return-path domain under the organisation's own
 * domain would avoid it (README "Bounces and complaints": not built).
 */
const BOUNCE_DOMAIN_RULES = ['HEADER_FROM_DIFFERENT_DOMAINS'];

interface RuleHit {
  rule: string;
  score: number;
}

/** SpamAssassin's verdict on one raw message: the rules that hit, with their scores. */
function judge(raw: string): RuleHit[] {
  const run = spawnSync('spamassassin', ['-L', '-t'], { input: raw, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.status, run.stderr).toBe(0);
  const report = run.stdout.slice(run.stdout.indexOf('Content analysis details'));
  return [...report.matchAll(/^\s*(-?\d+(?:\.\d+)?)\s+([A-Z0-9_]+)\s/gm)].map((m) => ({ rule: m[2], score: Number(m[1]) }));
}

describe.skipIf(!available)(`a broadcast through a spam filter (${available ? spamassassin.stdout.split('\n')[0] : 'not installed'})`, () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await signIn(page, baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Sends a tracked broadcast of `body` to one new contact; answers the caught mail's raw text. */
  async function caught(label: string, subject: string, body: string): Promise<string> {
    const email = `${label}.${RUN}@spam-filter.test`;
    const tag = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/tag', { name: `Filter ${label} ${RUN}` })).body.data.id;
    expect((await apiFromPage(page, 'POST', '/contact', { name: 'Grace Reader', addresses: [{ type: 'email', value: email }], tags: [tag] })).status).toBe(201);
    const template = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/template', { type: 'email', name: `Filter ${label} ${RUN}`, subject, body }))
      .body.data.id;
    const subscription = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/subscription', { name: `Newsletter ${label} ${RUN}` })).body.data.id;
    const senders = await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/sender?page_size=100');
    const created = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/broadcast', {
      name: `Filter ${label} ${RUN}`,
      type: 'email',
      sender_id: senders.body.items.find((s) => s.type === 'email')!.id,
      template_id: template,
      subscription_id: subscription,
      contacts: { filter: { tags: [tag] } },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    await eventually(async () => (await apiFromPage<{ data: { status: string } }>(page, 'GET', `/broadcast/${id}`)).body.data.status, 'finished', 60_000);
    let found: { id: string } | undefined;
    await eventually(
      async () => {
        const list = (await (await fetch(`${mailUrl}/messages.json`)).json()) as { id: string; to: string[] }[];
        found = list.find((m) => m.to.includes(email));
        return !!found;
      },
      true,
      30_000,
    );
    return (await fetch(`${mailUrl}/messages/${found!.id}.eml`)).text();
  }

  const templates = {
    'a short letter': [
      'News for {{ contact.name }}',
      '<html><body><h1>Hello {{ contact.name }}</h1><p>This is the monthly news from our shop. We have new offers this week and a few stories we think you will like.</p>' +
        '<p>Read <a href="https://shop.example.com/offers">this week\'s offers</a> or <a href="https://shop.example.com/stories">our stories</a>.</p>' +
        '<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p></body></html>',
    ],
    'a 60 KB newsletter with 40 links and images': ['Acme news for {{ contact.name }}', newsletterHtml()],
  } as const;

  for (const [label, [subject, body]] of Object.entries(templates)) {
    it(`hits no rule the platform controls: ${label}`, async () => {
      const raw = await caught(label.split(' ')[1], subject, body);
      expect(raw).toMatch(/^List-Id: /m);
      const hits = judge(raw);
      const content = hits.filter((h) => AUTHORS_CONTENT.some((p) => p.test(h.rule)));
      const local = hits.filter((h) => LOCAL_ONLY.includes(h.rule));
      const bounceAddress = /^Return-Path: <b-[0-9a-z]+-[0-9a-z]+-[0-9a-f]{20}@bounces\.localhost>/m.test(raw);
      const bounce = bounceAddress ? hits.filter((h) => BOUNCE_DOMAIN_RULES.includes(h.rule)) : [];
      const platform = hits.filter((h) => h.score > 0 && !content.includes(h) && !local.includes(h) && !bounce.includes(h));
      console.log(
        `spam-filter (${label}): ${hits.map((h) => `${h.rule} ${h.score}`).join(', ')}; the author's content: ${content.map((h) => h.rule).join(', ') || 'none'}; ` +
          `local platform only: ${local.map((h) => h.rule).join(', ') || 'none'}; the bounce return path: ${bounce.map((h) => `${h.rule} ${h.score}`).join(', ') || 'none'}`,
      );
      expect(platform).toEqual([]);
      // The list headers are recognised as a list's (a negative score).
      expect(hits.some((h) => h.rule.startsWith('LIST_PARTIAL'))).toBe(false);
    });
  }
});
