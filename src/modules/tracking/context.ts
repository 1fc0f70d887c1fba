import { TOO_SOON_MS, type HitClass, type HitReason } from '../../shared/contracts/tracking';
import { classifyRequest, type HitShape, type Verdict } from './classify';

// The signals that need a message's other hits: all of them are applied again to the whole list whenever new
// hits arrive, so a honeypot click that comes after the clicks it exposes still reclassifies them.

// How soon after sending a hit is a machine's is TOO_SOON_MS, in the shared contract: the console's legend says it too.
/** Three or more client addresses on one message within this window: a scanner farm, not the recipient. */
export const BURST_WINDOW_MS = 30_000;
export const BURST_ADDRESSES = 3;
/** Hits this close to a honeypot click came from the same scanner. */
export const HONEYPOT_WINDOW_MS = 30_000;

export interface StoredHit extends HitShape {
  id: string;
  at: string;
  ipHash: string | null;
  linkIndex: number | null;
  url: string | null;
}

export interface ClassifiedHit extends StoredHit, Verdict {}

/** Every hit of one message with its final class, in time order. */
export function classifyMessageHits(hits: StoredHit[], sentAt: string | null): ClassifiedHit[] {
  const sorted = [...hits].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  const out: ClassifiedHit[] = sorted.map((hit) => ({ ...hit, ...classifyRequest(hit) }));
  const time = (h: StoredHit) => Date.parse(h.at);
  const sent = sentAt ? Date.parse(sentAt) : NaN;
  const machine = (h: ClassifiedHit): HitClass => (h.kind === 'open' ? 'prefetch' : 'scanner');
  const demote = (h: ClassifiedHit, reason: HitReason) => {
    // Only hits that looked human are demoted: a more specific machine reason stays.
    if (h.class === 'human') Object.assign(h, { class: machine(h), reason });
  };

  const honeypots = out.filter((h) => h.reason === 'honeypot').map(time);
  for (const hit of out) {
    const at = time(hit);
    if (honeypots.some((t) => Math.abs(t - at) <= HONEYPOT_WINDOW_MS)) demote(hit, 'honeypot_window');
    else if (!Number.isNaN(sent) && at - sent < TOO_SOON_MS[hit.kind]) demote(hit, 'too_soon_after_send');
  }
  // Bursts: any window of BURST_WINDOW_MS holding hits from BURST_ADDRESSES or more addresses marks all its hits.
  let start = 0;
  for (let end = 0; end < out.length; end++) {
    while (time(out[end]) - time(out[start]) > BURST_WINDOW_MS) start++;
    const window = out.slice(start, end + 1);
    const addresses = new Set(window.map((h) => h.ipHash).filter(Boolean));
    if (addresses.size >= BURST_ADDRESSES) for (const h of window) demote(h, 'burst');
  }
  return out;
}

/** What one message's hits add up to: the message's counters and its per-link counts. */
export interface MessageTally {
  opens_total: number;
  opens_unique: number;
  opened_at: string | null;
  human_opens: number;
  human_opened_at: string | null;
  clicks_total: number;
  clicks_unique: number;
  clicked_at: string | null;
  human_clicks: number;
  human_clicked_at: string | null;
  links: Map<number, { url: string; clicks: number; human_clicks: number }>;
}

/**
 * Counts one message's classified hits. A click implies an open (a person who clicked saw the message, even with
 * images blocked). The honeypot is recorded but is no link of the message: it counts in no click figure.
 */
export function tally(hits: readonly (Verdict & Pick<StoredHit, 'kind' | 'at' | 'linkIndex' | 'url'>)[]): MessageTally {
  const t: MessageTally = {
    opens_total: 0,
    opens_unique: 0,
    opened_at: null,
    human_opens: 0,
    human_opened_at: null,
    clicks_total: 0,
    clicks_unique: 0,
    clicked_at: null,
    human_clicks: 0,
    human_clicked_at: null,
    links: new Map(),
  };
  const first = (current: string | null, at: string) => (current === null || at < current ? at : current);
  for (const h of hits) {
    if (h.reason === 'honeypot') continue;
    const human = h.class === 'human';
    t.opened_at = first(t.opened_at, h.at);
    if (human) t.human_opened_at = first(t.human_opened_at, h.at);
    if (h.kind === 'open') {
      t.opens_total++;
      if (human) t.human_opens++;
      continue;
    }
    t.clicks_total++;
    t.clicked_at = first(t.clicked_at, h.at);
    if (human) {
      t.human_clicks++;
      t.human_clicked_at = first(t.human_clicked_at, h.at);
    }
    const index = h.linkIndex ?? 0;
    const link = t.links.get(index) ?? { url: h.url ?? '', clicks: 0, human_clicks: 0 };
    link.clicks++;
    if (human) link.human_clicks++;
    t.links.set(index, link);
  }
  t.opens_unique = t.opened_at ? 1 : 0;
  t.clicks_unique = t.clicked_at ? 1 : 0;
  return t;
}
