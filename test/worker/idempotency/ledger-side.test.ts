// Idempotency keys in the organisation's ledger (src/modules/idempotency/ledger-side.ts, ledger step 10), called as the
// worker calls them (the OrgLedger methods, with the clock passed in): the lock that runs out after 60 s, the 24 hours
// a key is kept, the few expired rows each begin deletes, the owner check, and a finish inside the caller's own
// transaction (the send module's way) that rolls back with it.
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { beginIdempotentSql, finishIdempotentSql, IDEMPOTENCY_KEEP_MS, IDEMPOTENCY_LOCK_MS } from '../../../src/modules/idempotency/ledger-side';
import { LEDGER_WRONG_OWNER, served } from '../../../src/modules/ledger/owner';
import { orgLedger, type LedgerHandle } from '../../../src/modules/ledger/registry';
import { createOrg } from '../helpers';

const E = env as unknown as Env;
let orgs = 0;

async function ledgerOfNewOrg(): Promise<LedgerHandle> {
  const o = await createOrg(`idl${++orgs}x${Math.floor(Math.random() * 1e6)}`);
  return (await orgLedger(E, createDb(E.DB), o.orgId))!;
}

const T0 = Date.UTC(2026, 0, 1);
const SCOPE = 'key:1:/api/v1/send';

describe('idempotency keys in the ledger', () => {
  it('answers new, then in flight until finished, then the stored answer; another request is a mismatch in every state', async () => {
    const l = await ledgerOfNewOrg();
    const begin = async (hash: string, now: number) => served(await l.stub.beginIdempotent(l.owner, SCOPE, 'k1', hash, now));
    expect(await begin('h1', T0)).toEqual({ state: 'new' });
    expect(await begin('h1', T0 + 1000)).toEqual({ state: 'in_flight' });
    expect(await begin('h2', T0 + 1000)).toEqual({ state: 'mismatch' });
    served(await l.stub.finishIdempotent(l.owner, SCOPE, 'k1', 202, '{"data":{"id":7}}'));
    expect(await begin('h1', T0 + 2000)).toEqual({ state: 'done', status: 202, body: '{"data":{"id":7}}' });
    expect(await begin('h2', T0 + 2000)).toEqual({ state: 'mismatch' });
    // A second finish keeps the first answer, and a release never drops a stored answer.
    served(await l.stub.finishIdempotent(l.owner, SCOPE, 'k1', 500, 'other'));
    served(await l.stub.releaseIdempotent(l.owner, SCOPE, 'k1'));
    expect(await begin('h1', T0 + 3000)).toEqual({ state: 'done', status: 202, body: '{"data":{"id":7}}' });
  });

  it('lets a retry take over a lock left for 60 seconds (its worker died), and not a moment before', async () => {
    const l = await ledgerOfNewOrg();
    const begin = async (now: number) => served(await l.stub.beginIdempotent(l.owner, SCOPE, 'k', 'h', now));
    expect(await begin(T0)).toEqual({ state: 'new' });
    expect(await begin(T0 + IDEMPOTENCY_LOCK_MS - 1)).toEqual({ state: 'in_flight' });
    expect(await begin(T0 + IDEMPOTENCY_LOCK_MS)).toEqual({ state: 'new' });
    // The taker holds a fresh lock of its own.
    expect(await begin(T0 + IDEMPOTENCY_LOCK_MS + 1000)).toEqual({ state: 'in_flight' });
    expect(await begin(T0 + 2 * IDEMPOTENCY_LOCK_MS)).toEqual({ state: 'new' });
  });

  it('keeps an answer 24 hours from the first call; after that the key is new, even for another request', async () => {
    const l = await ledgerOfNewOrg();
    const begin = async (hash: string, now: number) => served(await l.stub.beginIdempotent(l.owner, SCOPE, 'k', hash, now));
    expect(await begin('h', T0)).toEqual({ state: 'new' });
    served(await l.stub.finishIdempotent(l.owner, SCOPE, 'k', 202, '{}'));
    expect(await begin('h', T0 + IDEMPOTENCY_KEEP_MS - 1)).toEqual({ state: 'done', status: 202, body: '{}' });
    expect(await begin('other', T0 + IDEMPOTENCY_KEEP_MS)).toEqual({ state: 'new' });
    expect(await begin('h', T0 + IDEMPOTENCY_KEEP_MS + 1)).toEqual({ state: 'mismatch' });
  });

  it('separates scopes: the same key under another caller or path is another key', async () => {
    const l = await ledgerOfNewOrg();
    expect(served(await l.stub.beginIdempotent(l.owner, 'key:1:/api/v1/send', 'k', 'h', T0))).toEqual({ state: 'new' });
    expect(served(await l.stub.beginIdempotent(l.owner, 'key:2:/api/v1/send', 'k', 'other', T0))).toEqual({ state: 'new' });
    expect(served(await l.stub.beginIdempotent(l.owner, 'key:1:/api/v1/send/batch', 'k', 'h', T0))).toEqual({ state: 'new' });
    expect(served(await l.stub.beginIdempotent(l.owner, 'key:1:/api/v1/send', 'k', 'h', T0))).toEqual({ state: 'in_flight' });
  });

  it('deletes expired keys a few at a time on each begin, oldest first, through the created_at index', async () => {
    const l = await ledgerOfNewOrg();
    for (let i = 0; i < 25; i++) served(await l.stub.beginIdempotent(l.owner, SCOPE, `old${i}`, 'h', T0 + i));
    served(await l.stub.beginIdempotent(l.owner, SCOPE, 'recent', 'h', T0 + IDEMPOTENCY_KEEP_MS / 2));
    const now = T0 + IDEMPOTENCY_KEEP_MS + 100;
    served(await l.stub.beginIdempotent(l.owner, SCOPE, 'next', 'h', now));
    const keys = () =>
      runInDurableObject(l.stub, (_instance, state) =>
        state.storage.sql
          .exec<{ key: string }>('SELECT key FROM idempotency_keys ORDER BY created_at, key')
          .toArray()
          .map((r) => r.key),
      );
    // Ten of the 25 expired went, the oldest; the rest wait for the next begins.
    expect(await keys()).toEqual([...Array.from({ length: 15 }, (_, i) => `old${i + 10}`), 'recent', 'next']);
    served(await l.stub.beginIdempotent(l.owner, SCOPE, 'next', 'h', now));
    served(await l.stub.beginIdempotent(l.owner, SCOPE, 'next', 'h', now));
    expect(await keys()).toEqual(['recent', 'next']);
    const plan = await runInDurableObject(l.stub, (_instance, state) =>
      state.storage.sql
        .exec<{ detail: string }>('EXPLAIN QUERY PLAN SELECT rowid FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT 10', now)
        .toArray()
        .map((r) => r.detail)
        .join('; '),
    );
    expect(plan).toMatch(/USING (COVERING )?INDEX idempotency_keys_created/);
  });

  it('refuses another organisation', async () => {
    const a = await ledgerOfNewOrg();
    const b = await ledgerOfNewOrg();
    expect(await a.stub.beginIdempotent(b.owner, SCOPE, 'k', 'h', T0)).toEqual({ ok: false, refused: LEDGER_WRONG_OWNER });
    expect(await a.stub.finishIdempotent(b.owner, SCOPE, 'k', 202, '{}')).toEqual({ ok: false, refused: LEDGER_WRONG_OWNER });
    expect(await a.stub.releaseIdempotent(b.owner, SCOPE, 'k')).toEqual({ ok: false, refused: LEDGER_WRONG_OWNER });
  });

  it('finishes a key inside the caller’s transaction: when the caller’s writes roll back, the answer does too', async () => {
    const l = await ledgerOfNewOrg();
    expect(served(await l.stub.beginIdempotent(l.owner, SCOPE, 'k', 'h', T0))).toEqual({ state: 'new' });
    const outcome = await runInDurableObject(l.stub, (_instance, state) => {
      try {
        state.storage.transactionSync(() => {
          finishIdempotentSql(state.storage.sql, SCOPE, 'k', 202, '{"data":{"id":1}}');
          throw new Error('the message insert failed');
        });
      } catch (error) {
        return String(error);
      }
      return 'committed';
    });
    expect(outcome).toContain('the message insert failed');
    expect(served(await l.stub.beginIdempotent(l.owner, SCOPE, 'k', 'h', T0 + 1000))).toEqual({ state: 'in_flight' });
    // Committed with the caller's writes, it is the answer.
    await runInDurableObject(l.stub, (_instance, state) =>
      state.storage.transactionSync(() => {
        expect(beginIdempotentSql(state.storage.sql, SCOPE, 'k', 'h', T0 + 2000)).toEqual({ state: 'in_flight' });
        finishIdempotentSql(state.storage.sql, SCOPE, 'k', 202, '{"data":{"id":1}}');
      }),
    );
    expect(served(await l.stub.beginIdempotent(l.owner, SCOPE, 'k', 'h', T0 + 3000))).toEqual({ state: 'done', status: 202, body: '{"data":{"id":1}}' });
  });
});
