import { span, type ClockEnv } from './clock';

// When a failed delivery is tried again: growing delays, over a day in all (10 s + 1 m + 5 m + 15 m + 30 m + 1 h +
// 2 h + 4 h + 6 h + 8 h + 8 h ≈ 30 h), then every 8 hours until the endpoint is turned off for failing
// (FAILING_DISABLE_MS) or the event leaves the stream.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  10 * SECOND,
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  4 * HOUR,
  6 * HOUR,
  8 * HOUR,
  8 * HOUR,
];

/** The nominal delay after the `attempts`-th failed attempt (1 for the first). */
export const retryDelay = (attempts: number): number => RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1];

/** When a delivery that has now failed `attempts` times is tried next (epoch ms), as the clock runs. */
export const nextAttemptAt = (env: ClockEnv, attempts: number, now: number): number => now + span(env, retryDelay(attempts));
