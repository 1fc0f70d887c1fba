// The Idempotency-Key wrapper (src/modules/idempotency/request-side.ts) on two test-only routes shaped like the send
// API's: one validating its JSON body before the wrapper, one reading it inside the work. Each test counts the work's
// runs: a replay, a refusal and a 409 must run nothing. Locks and expiry are set up through the ledger with an earlier
// clock (the wrapper itself uses the real one).
import { env } from 'cloudflare:workers';
import { Hono, type Context } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppEnv } from '../../../src/context';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { validationFailed } from '../../../src/lib/api-error';
import { validJson } from '../../../src/lib/validate';
import { handleError } from '../../../src/middleware/errors';
import { requestContext } from '../../../src/middleware/request-context';
import { IDEMPOTENCY_KEEP_MS, IDEMPOTENCY_LOCK_MS } from '../../../src/modules/idempotency/ledger-side';
import { idempotent, requestHashOf } from '../../../src/modules/idempotency/request-side';
import { served } from '../../../src/modules/ledger/owner';
import { orgLedger } from '../../../src/modules/ledger/registry';
import { createOrg } from '../helpers';

const E = env as unknown as Env;
let orgs = 0;

interface Harness {
  orgId: number;
  /** How many times a route's work ran. */
  runs: () => number;
  post: (path: string, body: unknown, headers?: Record<string, string>) => Promise<Response>;
  /** Holds the next work open until `release` is called; `entered` resolves once it runs. */
  holdNext: () => { entered: Promise<void>; release: () => void };
}

/** A small app with the wrapper on `/api/v1/send` (validated first) and `/api/v1/late` (body read in the work). */
async function harness(): Promise<Harness> {
  const { orgId, domain } = await createOrg(`idem${++orgs}x${Math.floor(Math.random() * 1e6)}`);
  let runs = 0;
  let hold: { entered: () => void; wait: Promise<void> } | null = null;
  const scopeOf = (c: Context<AppEnv>) => `key:${c.req.header('x-caller') ?? '1'}:${c.req.path}`;
  const ran = async () => {
    runs++;
    const h = hold;
    hold = null;
    if (h) {
      h.entered();
      await h.wait;
    }
  };

  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use('*', requestContext);
  app.use('*', async (c, next) => {
    c.set('org', { id: orgId, name: domain, domain });
    await next();
  });
  app.post('/api/v1/send', validJson(z.object({ to: z.string().min(1) }).strict()), (c) =>
    idempotent(c, scopeOf(c), async (claim) => {
      await ran();
      const { to } = c.req.valid('json');
      if (to === 'refused') return { response: c.json({ error: { code: 'validation_failed', message: 'refused' } }, 422), finished: false };
      if (to === 'throws') throw validationFailed({ to: ['Not this one'] });
      return { response: c.json({ data: { run: runs, to, claimed: claim !== null } }, 202), finished: false };
    }),
  );
  app.post('/api/v1/late', (c) =>
    idempotent(c, scopeOf(c), async (claim) => {
      await ran();
      const body = await c.req.json<{ to: string; finishItself?: boolean }>();
      const data = JSON.stringify({ data: { run: runs, to: body.to, by: 'work' } });
      if (body.finishItself && claim) {
        served(await claim.ledger.stub.finishIdempotent(claim.ledger.owner, claim.scope, claim.key, 201, data));
        return { response: c.body(data, 201, { 'Content-Type': 'application/json' }), finished: true };
      }
      return { response: c.json({ data: { run: runs, to: body.to } }, 202), finished: false };
    }),
  );

  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  return {
    orgId,
    runs: () => runs,
    post: async (path, body, headers = {}) =>
      app.fetch(
        new Request(`http://${domain}.localhost${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
        E,
        ctx,
      ),
    holdNext: () => {
      let entered!: () => void;
      let release!: () => void;
      const enteredP = new Promise<void>((resolve) => (entered = resolve));
      const wait = new Promise<void>((resolve) => (release = resolve));
      hold = { entered, wait };
      return { entered: enteredP, release };
    },
  };
}

const key = (k: string) => ({ 'Idempotency-Key': k });
const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('idempotent', () => {
  it('runs every call without the header, none of them marked as replayed', async () => {
    const h = await harness();
    const a = await h.post('/api/v1/send', { to: 'ann' });
    const b = await h.post('/api/v1/send', { to: 'ann' });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(await b.json()).toEqual({ data: { run: 2, to: 'ann', claimed: false } });
    expect(b.headers.get('Idempotent-Replayed')).toBeNull();
    expect(h.runs()).toBe(2);
  });

  it('answers a retry with the first call’s stored answer, marked as replayed, and runs nothing more', async () => {
    const h = await harness();
    const first = await h.post('/api/v1/send', { to: 'ann' }, key('order-1'));
    expect(first.status).toBe(202);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const firstBody = await first.text();
    expect(JSON.parse(firstBody)).toEqual({ data: { run: 1, to: 'ann', claimed: true } });
    for (let i = 0; i < 2; i++) {
      const retry = await h.post('/api/v1/send', { to: 'ann' }, key('order-1'));
      expect(retry.status).toBe(202);
      expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
      expect(retry.headers.get('content-type')).toContain('application/json');
      expect(await retry.text()).toBe(firstBody);
    }
    expect(h.runs()).toBe(1);
    // The draft's quoted form names the same key.
    const quoted = await h.post('/api/v1/send', { to: 'ann' }, key('"order-1"'));
    expect(quoted.headers.get('Idempotent-Replayed')).toBe('true');
    expect(h.runs()).toBe(1);
  });

  it('answers 409 to a retry while the first call still runs, then replays once it finished', async () => {
    const h = await harness();
    const held = h.holdNext();
    const first = h.post('/api/v1/send', { to: 'ann' }, key('slow'));
    await held.entered;
    const during = await h.post('/api/v1/send', { to: 'ann' }, key('slow'));
    expect(during.status).toBe(409);
    expect(during.headers.get('Retry-After')).toBe('1');
    expect(await errorCode(during)).toBe('idempotency_in_flight');
    held.release();
    expect((await first).status).toBe(202);
    const after = await h.post('/api/v1/send', { to: 'ann' }, key('slow'));
    expect(after.headers.get('Idempotent-Replayed')).toBe('true');
    expect(h.runs()).toBe(1);
  });

  it('answers 422 to the same key with another body, and runs nothing', async () => {
    const h = await harness();
    expect((await h.post('/api/v1/send', { to: 'ann' }, key('k'))).status).toBe(202);
    const other = await h.post('/api/v1/send', { to: 'bob' }, key('k'));
    expect(other.status).toBe(422);
    expect(await errorCode(other)).toBe('idempotency_key_reused');
    // The body is compared as sent: the same data written otherwise is another request.
    const respaced = await h.post('/api/v1/send', '{ "to": "ann" }', key('k'));
    expect(await errorCode(respaced)).toBe('idempotency_key_reused');
    expect(h.runs()).toBe(1);
  });

  it('releases the key when the work answers 4xx or throws, so the same key with a fixed body runs', async () => {
    const h = await harness();
    const refused = await h.post('/api/v1/send', { to: 'refused' }, key('fix-me'));
    expect(refused.status).toBe(422);
    expect(await errorCode(refused)).toBe('validation_failed');
    const fixed = await h.post('/api/v1/send', { to: 'ann' }, key('fix-me'));
    expect(fixed.status).toBe(202);
    expect(fixed.headers.get('Idempotent-Replayed')).toBeNull();
    expect(h.runs()).toBe(2);

    const thrown = await h.post('/api/v1/send', { to: 'throws' }, key('fix-me-too'));
    expect(thrown.status).toBe(422);
    expect(await thrown.json()).toMatchObject({ error: { code: 'validation_failed', fields: { to: ['Not this one'] } } });
    expect((await h.post('/api/v1/send', { to: 'bob' }, key('fix-me-too'))).status).toBe(202);
    expect(h.runs()).toBe(4);
    // A body the route's validation refuses never reaches the key at all.
    expect((await h.post('/api/v1/send', { to: '' }, key('never-begun'))).status).toBe(422);
    expect((await h.post('/api/v1/send', { to: 'cy' }, key('never-begun'))).status).toBe(202);
    expect(h.runs()).toBe(5);
  });

  it('lets a retry run once the first call’s lock is 60 seconds old (its worker died), not before', async () => {
    const h = await harness();
    const ledger = (await orgLedger(E, createDb(E.DB), h.orgId))!;
    const body = JSON.stringify({ to: 'ann' });
    const hash = await requestHashOf('POST', '/api/v1/send', body);
    const scope = 'key:1:/api/v1/send';
    // Two calls that died after beginning: one 30 s ago, one a lock's length ago.
    served(await ledger.stub.beginIdempotent(ledger.owner, scope, 'recent', hash, Date.now() - 30_000));
    served(await ledger.stub.beginIdempotent(ledger.owner, scope, 'dead', hash, Date.now() - IDEMPOTENCY_LOCK_MS - 1));
    expect(await errorCode(await h.post('/api/v1/send', body, key('recent')))).toBe('idempotency_in_flight');
    const taken = await h.post('/api/v1/send', body, key('dead'));
    expect(taken.status).toBe(202);
    expect(taken.headers.get('Idempotent-Replayed')).toBeNull();
    expect(h.runs()).toBe(1);
    expect((await h.post('/api/v1/send', body, key('dead'))).headers.get('Idempotent-Replayed')).toBe('true');
    expect(h.runs()).toBe(1);
  });

  it('keeps an answer 24 hours: a key answered a day ago runs again, one answered 23 hours ago replays', async () => {
    const h = await harness();
    const ledger = (await orgLedger(E, createDb(E.DB), h.orgId))!;
    const body = JSON.stringify({ to: 'ann' });
    const hash = await requestHashOf('POST', '/api/v1/send', body);
    const scope = 'key:1:/api/v1/send';
    const answeredAt = async (k: string, at: number) => {
      served(await ledger.stub.beginIdempotent(ledger.owner, scope, k, hash, at));
      served(await ledger.stub.finishIdempotent(ledger.owner, scope, k, 202, '{"data":{"stored":true}}'));
    };
    await answeredAt('day-old', Date.now() - IDEMPOTENCY_KEEP_MS - 1000);
    await answeredAt('hours-old', Date.now() - IDEMPOTENCY_KEEP_MS + 3_600_000);
    const old = await h.post('/api/v1/send', body, key('day-old'));
    expect(old.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await old.json()).toEqual({ data: { run: 1, to: 'ann', claimed: true } });
    const recent = await h.post('/api/v1/send', body, key('hours-old'));
    expect(recent.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await recent.json()).toEqual({ data: { stored: true } });
    expect(h.runs()).toBe(1);
  });

  it('keeps keys per scope: the same key from another caller or on another path runs', async () => {
    const h = await harness();
    expect((await h.post('/api/v1/send', { to: 'ann' }, key('shared'))).status).toBe(202);
    const otherCaller = await h.post('/api/v1/send', { to: 'bob' }, { ...key('shared'), 'x-caller': '2' });
    expect(otherCaller.status).toBe(202);
    expect(otherCaller.headers.get('Idempotent-Replayed')).toBeNull();
    const otherPath = await h.post('/api/v1/late', { to: 'ann' }, key('shared'));
    expect(otherPath.status).toBe(202);
    expect(otherPath.headers.get('Idempotent-Replayed')).toBeNull();
    expect(h.runs()).toBe(3);
  });

  it('refuses a key that is empty, longer than 255 characters or not printable ASCII with 400, running nothing', async () => {
    const h = await harness();
    for (const bad of ['', 'k'.repeat(256), 'tab\there', '""']) {
      const res = await h.post('/api/v1/send', { to: 'ann' }, key(bad));
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await errorCode(res)).toBe('invalid_idempotency_key');
    }
    expect(h.runs()).toBe(0);
    expect((await h.post('/api/v1/send', { to: 'ann' }, key('k'.repeat(255)))).status).toBe(202);
    expect((await h.post('/api/v1/send', { to: 'ann' }, key(' ~!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}'))).status).toBe(202);
    expect(h.runs()).toBe(2);
  });

  it('leaves the body readable by the route after hashing it, and keeps an answer the work stored itself', async () => {
    const h = await harness();
    const first = await h.post('/api/v1/late', { to: 'ann', finishItself: true }, key('self'));
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ data: { run: 1, to: 'ann', by: 'work' } });
    const retry = await h.post('/api/v1/late', { to: 'ann', finishItself: true }, key('self'));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await retry.json()).toEqual({ data: { run: 1, to: 'ann', by: 'work' } });
    expect(h.runs()).toBe(1);
  });
});
