// Open and click tracking: how each hit is classified, and the answers the console reads.

/** human: a person; prefetch: a mail-privacy proxy loading images ahead; scanner: a link or security scanner; unknown. */
export const HIT_CLASSES = ['human', 'prefetch', 'scanner', 'unknown'] as const;
export type HitClass = (typeof HIT_CLASSES)[number];

/** Why a hit got its class (stored with it; the console translates them). */
export const HIT_REASONS = [
  'browser',
  'google_image_proxy',
  'outlook_image_proxy',
  'yahoo_image_proxy',
  'apple_privacy_proxy',
  'head_request',
  'no_user_agent',
  'bot_user_agent',
  'scanner_network',
  'honeypot',
  'honeypot_window',
  'burst',
  'too_soon_after_send',
] as const;
export type HitReason = (typeof HIT_REASONS)[number];

/**
 * Machines fetch at delivery: a click this soon after sending is a scanner's, an open a prefetch (too_soon_after_send).
 * Here so the engagement tab's legend says the same number the classifier uses.
 */
export const TOO_SOON_MS = { open: 3_000, click: 10_000 } as const;

/** One link of a broadcast, as GET /broadcast/{id}/clicks answers it. */
export interface LinkClicks {
  link_index: number;
  url: string;
  clicks: number;
  clicks_unique: number;
  human_clicks: number;
  human_clicks_unique: number;
}

/** One link of a message, in GET /message/{id}/engagement. */
export interface MessageLinkClicks {
  link_index: number;
  url: string;
  clicks: number;
  human_clicks: number;
  first_clicked_at: string;
}

/** One hit as the message view lists it. */
export interface TrackingHit {
  kind: 'open' | 'click';
  class: HitClass;
  reason: HitReason;
  url: string | null;
  at: string;
  user_agent: string | null;
  as_organization: string | null;
}

/** GET /message/{id}/engagement: links clicked, the latest hits, and the unsubscribe it led to, if any. */
export interface MessageEngagement {
  links: MessageLinkClicks[];
  hits: TrackingHit[];
  unsubscribe: { subscription_id: number; subscription_name: string | null; reason: string | null; comment: string | null; created_at: string } | null;
}
