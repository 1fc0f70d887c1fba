import type { Env } from '../../../env';

// The hosted forms' first gate: posts per IP in 10 seconds, counted by the Rate Limiting binding in the memory of the
// location the request lands in (wrangler.toml FORM_FLOOD_GATE), asked before anything reads or writes D1. A flood from
// one address (bench:forms: 5,000 posts at 200/s) then costs the database nothing but what the gate lets through, in
// bursts of 10 a window: 60 a minute (as many as `ipVerified` allows an hour, limits.ts) arriving at once were 60
// sign-ups' writes and mails in the same second, which slowed the other organisations sharing the database (bench:forms'
// p95). No person posts a form 10 times in 10 seconds; the D1 counters keep the hourly caps, which a per-location count
// in windows of a minute at most cannot.

/** What wrangler.toml's FORM_FLOOD_GATE sets: posts per IP a window. */
export const FLOOD_GATE = { limit: 10, periodSeconds: 10 } as const;

/** False when the IP posted more than the gate allows this window (answer 429 without touching D1). */
export async function throughFloodGate(env: Pick<Env, 'FORM_FLOOD_GATE'>, ip: string | null): Promise<boolean> {
  if (!env.FORM_FLOOD_GATE) return true;
  const { success } = await env.FORM_FLOOD_GATE.limit({ key: `form-post:${ip ?? 'none'}` });
  return success;
}
