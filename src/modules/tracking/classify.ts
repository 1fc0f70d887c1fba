import { isbot } from 'isbot';
import type { HitClass, HitReason } from '../../shared/contracts/tracking';

// Who made a tracking hit, from what the request alone says: method, user agent and the network it came from
// (Cloudflare's request.cf.asn / asOrganization). A hit is never dropped, only classified; the signals that
// need the message's other hits (a burst, the honeypot's window, time since sending) are in context.ts.

export interface HitShape {
  kind: 'open' | 'click';
  method: string;
  userAgent: string | null;
  asn: number | null;
  asOrganization: string | null;
  /** The hidden link that no person can see. */
  honeypot: boolean;
}

export interface Verdict {
  class: HitClass;
  reason: HitReason;
}

/** Apple's Mail Privacy Protection loads every image through Apple's own network, whether anyone reads or not. */
const APPLE_ASNS = new Set([714, 6185]);

/**
 * Networks of link scanners and secure email gateways, which fetch every link at delivery with a browser's user
 * agent: Microsoft (Defender Safe Links), Proofpoint, Mimecast, Barracuda, Cisco (IronPort), Forcepoint, Trend
 * Micro, Sophos. On opens Microsoft is a person behind Outlook's image proxy, so these apply to clicks only.
 */
const SCANNER_ASNS = new Set([8075, 8068, 8069, 22843, 26211, 30031, 42427, 15324, 16417]);
const SCANNER_NETWORK_NAMES = /\b(microsoft|proofpoint|mimecast|barracuda|ironport|forcepoint|trend ?micro|sophos|cisco)\b/i;

/** Image proxies that fetch when a person opens the message: Gmail, Outlook.com, Yahoo. Opens, not machines. */
const PERSON_PROXIES: { pattern: RegExp; reason: HitReason }[] = [
  { pattern: /GoogleImageProxy|ggpht\.com/i, reason: 'google_image_proxy' },
  { pattern: /OutlookWebImageProxy|Microsoft Outlook|ms-office|Microsoft Office/i, reason: 'outlook_image_proxy' },
  { pattern: /YahooMailProxy/i, reason: 'yahoo_image_proxy' },
];

/**
 * User agents scanners use that a bot list does not know: Gmail's link check (an old Chrome with an Edge token
 * after it) and headless browsers.
 */
const KNOWN_SCANNER_AGENTS = /Chrome\/42\.0\.2311\.135 Safari\/537\.36 Edge\/12\.246|HeadlessChrome|PhantomJS/i;

const machine = (kind: HitShape['kind']): HitClass => (kind === 'open' ? 'prefetch' : 'scanner');

/** The class of a hit from the request alone. */
export function classifyRequest(hit: HitShape): Verdict {
  if (hit.honeypot) return { class: 'scanner', reason: 'honeypot' };
  if (hit.method.toUpperCase() === 'HEAD') return { class: 'scanner', reason: 'head_request' };
  const agent = hit.userAgent?.trim() ?? '';
  if (!agent) return { class: 'unknown', reason: 'no_user_agent' };
  if (hit.kind === 'open') {
    const proxy = PERSON_PROXIES.find((p) => p.pattern.test(agent));
    if (proxy) return { class: 'human', reason: proxy.reason };
    if ((hit.asn !== null && APPLE_ASNS.has(hit.asn)) || /\bapple\b/i.test(hit.asOrganization ?? '')) {
      return { class: 'prefetch', reason: 'apple_privacy_proxy' };
    }
  }
  if (KNOWN_SCANNER_AGENTS.test(agent) || isbot(agent)) return { class: machine(hit.kind), reason: 'bot_user_agent' };
  if (hit.kind === 'click' && ((hit.asn !== null && SCANNER_ASNS.has(hit.asn)) || SCANNER_NETWORK_NAMES.test(hit.asOrganization ?? ''))) {
    return { class: 'scanner', reason: 'scanner_network' };
  }
  return { class: 'human', reason: 'browser' };
}
