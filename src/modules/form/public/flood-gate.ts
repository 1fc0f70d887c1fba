import type { Env } from '../../../env';

// The hosted forms' first gate: posts per IP a minute, counted by the Rate Limiting binding in the memory of the
// location the request lands in (wrangler.toml FORM_FLOOD_GATE), asked before anything reads or writes D1. A flood from
// one address (bench:forms: 5,000 posts at 200/s) then costs the database nothing past the gate's first minute, so it
// cannot slow the other organisations sharing it. The gate is as wide a minute as `ipVerified` is an hour
// (limits.ts), so a person or a test never meets it before the D1 counters; those keep the hourly caps, which a
// per-location, per-minute count cannot.

/** False when the IP posted more than the gate allows this minute (answer 429 without touching D1). */
export async function throughFloodGate(env: Pick<Env, 'FORM_FLOOD_GATE'>, ip: string | null): Promise<boolean> {
  if (!env.FORM_FLOOD_GATE) return true;
  const { success } = await env.FORM_FLOOD_GATE.limit({ key: `form-post:${ip ?? 'none'}` });
  return success;
}
