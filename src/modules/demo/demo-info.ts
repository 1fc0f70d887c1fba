import type { Env } from '../../env';
import { DEMO_ORG_DOMAIN } from '../../shared/org-domain';

/** True when the organisation is the shared demo (spec: demo mode is on when the subdomain equals demo). */
export const isDemoOrganization = (domain: string | null | undefined) => domain === DEMO_ORG_DOMAIN;

/** Hours between demo resets (DEMO_RESET_HOURS, default 24): the spec's reset_length. */
export function demoResetHours(env: Env): number {
  const n = Number(env.DEMO_RESET_HOURS);
  return Number.isFinite(n) && n > 0 ? n : 24;
}

/** The demo organisation's name and its one user: the login and password are shown on the demo info page. */
export const DEMO_ORG_NAME = 'Demo Organisation';
export const DEMO_USER_NAME = 'Demo User';
export const DEMO_LOGIN = 'demo@demo.test';
export const DEMO_PASSWORD = 'Demo-2026!';

/** platform_settings key holding the ISO time of the last demo reset (JSON-encoded string). */
export const DEMO_RESET_AT_KEY = 'demo.reset_at';

/** When the next reset is due: `resetAt` plus the reset interval (null when the demo was never seeded). */
export function nextDemoResetAt(env: Env, resetAt: string | null): string | null {
  if (!resetAt) return null;
  const at = Date.parse(resetAt);
  return Number.isNaN(at) ? null : new Date(at + demoResetHours(env) * 3_600_000).toISOString();
}
