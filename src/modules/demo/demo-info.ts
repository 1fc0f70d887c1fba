import type { Env } from '../../env';
import { DEMO_ORG_DOMAIN } from '../../shared/org-domain';

/** True when the organisation is the shared demo (spec: demo mode is on when the subdomain equals demo). */
export const isDemoOrganization = (domain: string | null | undefined) => domain === DEMO_ORG_DOMAIN;

/** Hours between demo resets (DEMO_RESET_HOURS, default 24): the spec's reset_length. */
export function demoResetHours(env: Env): number {
  const n = Number(env.DEMO_RESET_HOURS);
  return Number.isFinite(n) && n > 0 ? n : 24;
}
