// Who made a tracking hit: each signal of classify.ts and context.ts against request shapes recorded from the
// real clients and scanners (user agents as they arrive; the network as Cloudflare's request.cf reports it).
import { describe, expect, it } from 'vitest';
import { classifyRequest, type HitShape } from '../../../src/modules/tracking/classify';
import { classifyMessageHits, tally, type StoredHit } from '../../../src/modules/tracking/context';

/** Request shapes seen in the wild (user agent, ASN and network owner as Cloudflare reports them). */
const SHAPES = {
  chromeDesktop: {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    asn: 3320,
    asOrganization: 'Deutsche Telekom AG',
  },
  iphoneSafari: {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    asn: 21928,
    asOrganization: 'T-Mobile USA, Inc.',
  },
  gmailProxy: {
    userAgent: 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
    asn: 15169,
    asOrganization: 'Google LLC',
  },
  outlookProxy: {
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582 OutlookWebImageProxy',
    asn: 8075,
    asOrganization: 'Microsoft Corporation',
  },
  outlookDesktop: {
    userAgent: 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17928; Pro)',
    asn: 8075,
    asOrganization: 'Microsoft Corporation',
  },
  yahooProxy: { userAgent: 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html', asn: 36647, asOrganization: 'Yahoo' },
  appleMpp: { userAgent: 'Mozilla/5.0', asn: 714, asOrganization: 'Apple Inc.' },
  safeLinks: {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/103.0.5060.134 Safari/537.36',
    asn: 8075,
    asOrganization: 'Microsoft Corporation',
  },
  proofpoint: {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
    asn: 22843,
    asOrganization: 'Proofpoint, Inc.',
  },
  mimecast: {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/92.0.4515.159 Safari/537.36',
    asn: 30031,
    asOrganization: 'Mimecast Ltd',
  },
  barracuda: {
    userAgent: 'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/60.0.3112.113 Safari/537.36',
    asn: 15324,
    asOrganization: 'Barracuda Networks, Inc.',
  },
  gmailLinkCheck: {
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.135 Safari/537.36 Edge/12.246 Mozilla/5.0',
    asn: 15169,
    asOrganization: 'Google LLC',
  },
  curl: { userAgent: 'curl/8.5.0', asn: 16509, asOrganization: 'Amazon.com, Inc.' },
  headless: {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36',
    asn: 16509,
    asOrganization: 'Amazon.com, Inc.',
  },
  slackUnfurl: { userAgent: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', asn: 16509, asOrganization: 'Amazon.com, Inc.' },
  noAgent: { userAgent: null, asn: 16509, asOrganization: 'Amazon.com, Inc.' },
} satisfies Record<string, Pick<HitShape, 'userAgent' | 'asn' | 'asOrganization'>>;

const hit = (kind: HitShape['kind'], shape: keyof typeof SHAPES, extra: Partial<HitShape> = {}): HitShape => ({
  kind,
  method: 'GET',
  honeypot: false,
  ...SHAPES[shape],
  ...extra,
});

describe('classifying a hit by its request', () => {
  it.each([
    ['open', 'chromeDesktop', 'human', 'browser'],
    ['open', 'iphoneSafari', 'human', 'browser'],
    // Image proxies fetch when a person opens: opens, not machines (Mautic drops these).
    ['open', 'gmailProxy', 'human', 'google_image_proxy'],
    ['open', 'outlookProxy', 'human', 'outlook_image_proxy'],
    ['open', 'outlookDesktop', 'human', 'outlook_image_proxy'],
    ['open', 'yahooProxy', 'human', 'yahoo_image_proxy'],
    // Apple Mail Privacy Protection loads every image whether anyone reads or not.
    ['open', 'appleMpp', 'prefetch', 'apple_privacy_proxy'],
    ['open', 'curl', 'prefetch', 'bot_user_agent'],
    ['open', 'noAgent', 'unknown', 'no_user_agent'],
    ['click', 'chromeDesktop', 'human', 'browser'],
    // Security gateways click every link at delivery with a browser's user agent: their network gives them away.
    ['click', 'safeLinks', 'scanner', 'scanner_network'],
    ['click', 'proofpoint', 'scanner', 'scanner_network'],
    ['click', 'mimecast', 'scanner', 'scanner_network'],
    ['click', 'barracuda', 'scanner', 'scanner_network'],
    ['click', 'gmailLinkCheck', 'scanner', 'bot_user_agent'],
    ['click', 'headless', 'scanner', 'bot_user_agent'],
    ['click', 'slackUnfurl', 'scanner', 'bot_user_agent'],
    ['click', 'curl', 'scanner', 'bot_user_agent'],
    ['click', 'noAgent', 'unknown', 'no_user_agent'],
  ] as const)('%s from %s is %s (%s)', (kind, shape, expected, reason) => {
    expect(classifyRequest(hit(kind, shape))).toEqual({ class: expected, reason });
  });

  it('takes a HEAD request and the honeypot link for machines, whatever the user agent', () => {
    expect(classifyRequest(hit('open', 'chromeDesktop', { method: 'HEAD' }))).toEqual({ class: 'scanner', reason: 'head_request' });
    expect(classifyRequest(hit('click', 'chromeDesktop', { method: 'HEAD' }))).toEqual({ class: 'scanner', reason: 'head_request' });
    expect(classifyRequest(hit('click', 'chromeDesktop', { honeypot: true }))).toEqual({ class: 'scanner', reason: 'honeypot' });
  });
});

let n = 0;
const SENT = '2026-11-24T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(SENT) + seconds * 1000).toISOString();
const stored = (kind: HitShape['kind'], shape: keyof typeof SHAPES, seconds: number, ip: string, extra: Partial<StoredHit> = {}): StoredHit => ({
  ...hit(kind, shape),
  id: `h${++n}`,
  at: at(seconds),
  ipHash: ip,
  linkIndex: kind === 'click' ? 0 : null,
  url: kind === 'click' ? 'https://example.com/a' : null,
  ...extra,
});
const classes = (hits: StoredHit[]) => classifyMessageHits(hits, SENT).map((h) => `${h.class}:${h.reason}`);

describe("classifying a hit by the message's other hits", () => {
  it('a click seconds after sending is a scanner; the same click minutes later is a person', () => {
    expect(classes([stored('click', 'chromeDesktop', 4, 'a')])).toEqual(['scanner:too_soon_after_send']);
    expect(classes([stored('click', 'chromeDesktop', 600, 'a')])).toEqual(['human:browser']);
    expect(classes([stored('open', 'chromeDesktop', 1, 'a')])).toEqual(['prefetch:too_soon_after_send']);
  });

  it('three addresses on one message within 30 seconds is a burst: all of its hits are machines', () => {
    expect(
      classes([stored('click', 'chromeDesktop', 300, 'a'), stored('click', 'chromeDesktop', 310, 'b'), stored('open', 'chromeDesktop', 320, 'c')]),
    ).toEqual(['scanner:burst', 'scanner:burst', 'prefetch:burst']);
    // Two addresses, or three spread over minutes, are people (a phone and a laptop).
    expect(classes([stored('click', 'chromeDesktop', 300, 'a'), stored('click', 'iphoneSafari', 310, 'b')])).toEqual(['human:browser', 'human:browser']);
    expect(classes([stored('open', 'chromeDesktop', 300, 'a'), stored('open', 'chromeDesktop', 400, 'b'), stored('open', 'chromeDesktop', 500, 'c')])).toEqual([
      'human:browser',
      'human:browser',
      'human:browser',
    ]);
  });

  it('a honeypot click exposes the hits around it, even those that came before it', () => {
    const before = stored('click', 'chromeDesktop', 300, 'a');
    const honeypot = stored('click', 'chromeDesktop', 305, 'a', { honeypot: true, linkIndex: -1 });
    const later = stored('click', 'chromeDesktop', 3600, 'a');
    expect(classes([before, honeypot, later])).toEqual(['scanner:honeypot_window', 'scanner:honeypot', 'human:browser']);
  });

  it('a more specific machine reason is kept', () => {
    expect(classes([stored('open', 'appleMpp', 1, 'a')])).toEqual(['prefetch:apple_privacy_proxy']);
  });
});

describe('counting one message', () => {
  it('counts totals and uniques for all hits and for people, a click implies an open, the honeypot is no link', () => {
    const hits = classifyMessageHits(
      [
        stored('open', 'appleMpp', 30, 'apple'),
        stored('click', 'chromeDesktop', 900, 'home', { linkIndex: 1, url: 'https://example.com/b' }),
        stored('click', 'chromeDesktop', 960, 'home', { linkIndex: 1, url: 'https://example.com/b' }),
        stored('click', 'safeLinks', 40, 'ms', { linkIndex: 0 }),
        stored('click', 'safeLinks', 41, 'ms', { honeypot: true, linkIndex: -1 }),
      ],
      SENT,
    );
    const t = tally(hits);
    expect({ ...t, links: Object.fromEntries(t.links) }).toEqual({
      opens_total: 1,
      opens_unique: 1,
      opened_at: at(30),
      human_opens: 0,
      // The person never loaded the pixel (images off), but clicked: that is an open.
      human_opened_at: at(900),
      clicks_total: 3,
      clicks_unique: 1,
      clicked_at: at(40),
      human_clicks: 2,
      human_clicked_at: at(900),
      links: { 0: { url: 'https://example.com/a', clicks: 1, human_clicks: 0 }, 1: { url: 'https://example.com/b', clicks: 2, human_clicks: 2 } },
    });
  });
});
