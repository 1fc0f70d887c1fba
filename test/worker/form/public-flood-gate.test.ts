import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { FLOOD_GATE } from '../../../src/modules/form/public/flood-gate';
import { ipHash } from '../../../src/modules/form/public/ip-hash';
import { FORM_PUBLIC_LIMITS } from '../../../src/modules/form/public/limits';
import { newEmail, newIp, send, setupForm, signUp } from './public-helpers';

// The hosted forms' flood gate (src/modules/form/public/flood-gate.ts, wrangler.toml FORM_FLOOD_GATE): the Rate
// Limiting binding lets an IP post FLOOD_GATE.limit times a window; past it a post is answered before anything reads
// or writes D1, so the hourly counter in D1 stops moving.

const GATE = FLOOD_GATE.limit;
const WINDOW_MS = FLOOD_GATE.periodSeconds * 1000;

/** The binding's windows are aligned to the clock: start near one's beginning, so the posts all fall in one. */
async function freshWindow(): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < WINDOW_MS / 2) await new Promise((r) => setTimeout(r, left + 50));
}

async function counted(name: string, ip: string): Promise<number> {
  const row = await env.DB.prepare('SELECT count FROM rate_limits WHERE key = ?')
    .bind(`form:${name}:${await ipHash(env, ip)}`)
    .first<{ count: number }>();
  return row?.count ?? 0;
}

describe('hosted form flood gate', () => {
  it(`answers posts past ${GATE} a window from one IP without touching D1`, async () => {
    const s = await setupForm();
    const ip = newIp();
    await freshWindow();
    const answers: { status: number; text: string }[] = [];
    for (let i = 0; i < GATE + 3; i++) answers.push(await signUp(s, { email: newEmail() }, { ip }));

    // The D1 counters saw the gate's allowance and no more: the tokenless hourly cap refused most of them there.
    expect(await counted('ipTokenless', ip)).toBe(GATE);
    expect(answers.slice(0, GATE).filter((a) => a.status === 200)).toHaveLength(FORM_PUBLIC_LIMITS.ipTokenless.max);
    for (const gated of answers.slice(GATE)) {
      expect(gated.status).toBe(429);
      expect(gated.text).toContain('data-testid="form-limited"');
    }
    // The link request shares the gate; another IP is not held up.
    expect((await send(s.host, '/preferences', { fields: { email: newEmail() }, ip })).status).toBe(429);
    expect((await signUp(s, { email: newEmail() })).status).toBe(200);
  });
});
