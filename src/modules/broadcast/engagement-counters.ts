/** A broadcast's engagement counters (snake_case, as stored): the tracking count moves them, the ledger projects them. */
export const ENGAGEMENT_COUNTERS = [
  'opens',
  'opens_unique',
  'human_opens',
  'human_opens_unique',
  'clicks',
  'clicks_unique',
  'human_clicks',
  'human_clicks_unique',
] as const;
