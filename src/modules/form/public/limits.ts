import type { Database } from '../../../db/client';
import { hit, type Limit } from '../../../lib/rate-limit';

// Every limit of the public form endpoints, in one place (D1 fixed windows, src/lib/rate-limit.ts: the Rate Limiting
// binding counts per location with 10 s or 60 s windows only, and these are per hour). Posts that carry a verified
// Turnstile token get the normal limits; posts without one (a plain html embed, JavaScript off) are a bot's easiest
// way in, so they get limits a tenth or less as wide and are always double opt-in. The per-form and per-organisation
// caps are wide enough for a real campaign's rush (bench:forms: 10,000 sign-ups from 200 visitors) and stop a flood;
// the per-IP caps are what a flood from one address meets first. Confirmation mails: at most one per address per form
// per hour (a repeat within the hour answers the same and sends nothing), and a platform-wide hourly cap, since one
// bombed form on a shared platform hurts every organisation's sending reputation.

const HOUR = 3600;

export const FORM_PUBLIC_LIMITS = {
  /** Posts per IP: a person signs up once or twice; a shared office address a few dozen times. */
  ipVerified: { max: 60, windowSeconds: HOUR },
  ipTokenless: { max: 5, windowSeconds: HOUR },
  /** Posts per form. */
  formVerified: { max: 20_000, windowSeconds: HOUR },
  formTokenless: { max: 200, windowSeconds: HOUR },
  /** Posts per organisation, all its forms together. */
  orgVerified: { max: 50_000, windowSeconds: HOUR },
  orgTokenless: { max: 500, windowSeconds: HOUR },
  /** Confirmation mails per address and form. */
  mailPerAddress: { max: 1, windowSeconds: HOUR },
  /** Confirmation and link mails of the whole platform. */
  platformMails: { max: 100_000, windowSeconds: HOUR },
  /** "Send me my link": posts per IP, and mails per address (the same for known and unknown addresses). */
  linkIp: { max: 10, windowSeconds: HOUR },
  linkPerAddress: { max: 1, windowSeconds: HOUR },
  linkOrg: { max: 2_000, windowSeconds: HOUR },
  /** The confirmation page's POSTs per IP (a token is 256 bits: this only keeps the endpoint cheap). */
  confirmIp: { max: 60, windowSeconds: 600 },
} as const satisfies Record<string, Limit>;

export type FormLimitName = keyof typeof FORM_PUBLIC_LIMITS;

/** Counts one hit of `name` for `subject`; true while within the limit. */
export async function within(db: Database, name: FormLimitName, subject: string | number): Promise<boolean> {
  const limit = FORM_PUBLIC_LIMITS[name];
  const state = await hit(db, `form:${name}:${subject}`, limit);
  const allowed = state.count <= limit.max;
  // Logged once per window, at the first refusal: which cap a form meets is what an operator asks first.
  if (state.count === limit.max + 1) console.warn(JSON.stringify({ event: 'form_limit_reached', limit: name }));
  return allowed;
}
