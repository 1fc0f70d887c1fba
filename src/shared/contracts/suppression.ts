import { SKIP_REASONS } from './broadcast';

// Addresses the platform suppressed itself: a blacklist entry whose `reason` says why (a person's or the API's
// entries have none). src/modules/bounce adds them; the runner skips them with the reason's own words.

export const SUPPRESSION_REASONS = ['bounce', 'soft_bounces', 'complaint'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** What a recipient skipped for a suppressed address is told, by the entry's reason. */
export const SUPPRESSION_SKIPS: Record<SuppressionReason, string> = {
  bounce: SKIP_REASONS.bounced,
  soft_bounces: SKIP_REASONS.softBounced,
  complaint: SKIP_REASONS.complained,
};

/** Soft bounces that suppress an address, within how many days: the organisation's settings and their bounds. */
export const SOFT_BOUNCE_LIMIT = { min: 1, max: 100, default: 3 } as const;
export const SOFT_BOUNCE_DAYS = { min: 1, max: 365, default: 30 } as const;
