import type { Env } from '../../env';

// How long messages stay in D1: the organisation's own setting, else the platform's MESSAGE_RETENTION_DAYS,
// else 90 days. Older messages are archived to R2 by the cron (archive.ts).

export const DEFAULT_RETENTION_DAYS = 90;

/** The platform's default, from MESSAGE_RETENTION_DAYS when it is a sensible whole number of days. */
export function platformRetentionDays(env: Pick<Env, 'MESSAGE_RETENTION_DAYS'>): number {
  const days = Number(env.MESSAGE_RETENTION_DAYS);
  return Number.isInteger(days) && days >= 1 ? days : DEFAULT_RETENTION_DAYS;
}

/** The retention that applies to an organisation. */
export const effectiveRetentionDays = (env: Pick<Env, 'MESSAGE_RETENTION_DAYS'>, own: number | null) => own ?? platformRetentionDays(env);
