import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import type { HourlyLimits } from './ledger-hooks';

/** The hourly message limits of the call's organisation key (none for a person's call). */
export function hourlyLimitsOf(c: Context<AppEnv>): HourlyLimits | null {
  const key = c.var.auth.orgKey;
  return key ? { keyId: key.id, limits: key.limits } : null;
}
