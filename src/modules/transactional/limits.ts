import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError } from '../../lib/api-error';
import type { HourlyLimits } from './ledger-hooks';

/** The hourly message limits of the call's organisation key (none for a person's call). */
export function hourlyLimitsOf(c: Context<AppEnv>): HourlyLimits | null {
  const key = c.var.auth.orgKey;
  return key ? { keyId: key.id, keyPerHour: key.limits.keyMessagesPerHour, orgPerHour: key.limits.orgMessagesPerHour } : null;
}

/** The 429 of a refused hourly limit. */
export function limitRefusal(refusal: { retryAfterMs: number; message: string }): ApiError {
  return new ApiError(429, 'rate_limited', refusal.message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(refusal.retryAfterMs / 1000))) });
}
