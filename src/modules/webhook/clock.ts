import type { Env } from '../../env';

// The webhooks' one clock. Every duration the delivery engine waits on (the retry schedule, the failing day, a secret's
// overlap, the paused deliveries' keep) goes through `span`, which WEBHOOK_CLOCK_SCALE compresses: at 1000 a day of
// retries takes under 90 seconds, so the benchmark and the tests never wait real hours. Instants stay real epoch ms.

export type ClockEnv = Pick<Env, 'WEBHOOK_CLOCK_SCALE'>;

/** How many times faster than real time the webhooks' durations run (WEBHOOK_CLOCK_SCALE; default 1). */
export function clockScale(env: ClockEnv): number {
  const scale = Number(env.WEBHOOK_CLOCK_SCALE);
  return Number.isFinite(scale) && scale > 0 ? scale : 1;
}

/** Now, epoch ms. */
export const clockNow = (): number => Date.now();

/** A nominal duration (ms) as the clock runs it. */
export const span = (env: ClockEnv, ms: number): number => Math.max(0, Math.round(ms / clockScale(env)));

/** The instant `ms` of nominal time from now (epoch ms), e.g. when a rotated secret stops signing. */
export const after = (env: ClockEnv, ms: number, now = clockNow()): number => now + span(env, ms);

/** Whether `ms` of nominal time has passed since `since` (epoch ms). */
export const hasElapsed = (env: ClockEnv, since: number, ms: number, now = clockNow()): boolean => now - since >= span(env, ms);
