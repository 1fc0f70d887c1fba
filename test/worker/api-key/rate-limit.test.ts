// The limits of organisation API keys (issue 36): token buckets in the organisation's first ledger (ledger step 12,
// src/modules/api-key/rate-limit.ts), requests per second per key and per organisation, taken together or not at all;
// a call past one is a 429 rate_limited with Retry-After and a message naming the limit. The operator sets the limits.
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { admitMessages, admitRequest, apiLimitError, takeAllTokens, takeTokens } from '../../../src/modules/api-key/rate-limit';
import { ledgerName } from '../../../src/modules/ledger/owner';
import { ledgerStub, orgLedger } from '../../../src/modules/ledger/registry';
import { platform, operator } from '../signup/helpers';
import { body } from '../account/helpers';
import { keyOrg, newKey, setLimits, withKey } from './helpers';

/** Runs `work` on the SQLite storage of an organisation's first ledger. */
async function inLedger<T>(orgId: number, work: (sql: SqlStorage) => T): Promise<T> {
  const handle = (await orgLedger(env, createDb(env.DB), orgId))!;
  return runInDurableObject(ledgerStub(env, ledgerName(handle.owner.key, 0)), (_instance, state) => work(state.storage.sql));
}

const LIMITS = { keyRequestsPerSecond: 2, keyMessagesPerHour: 100, orgRequestsPerSecond: 3, orgMessagesPerHour: 1000 };

describe('takeTokens', () => {
  it('starts full, refills evenly over the period, never goes past the capacity, and never takes part of a count', async () => {
    const org = await keyOrg('rl-unit');
    const answers = await inLedger(org.orgId, (sql) => {
      const t0 = 1_000_000;
      const take = (count: number, at: number) => takeTokens(sql, 'unit:a', 4, 1000, count, at);
      return {
        full: [take(1, t0), take(3, t0)],
        empty: take(1, t0),
        quarter: take(1, t0 + 250),
        // 0.5 s later: 2 tokens back; 3 is more than that and takes nothing.
        tooMany: take(3, t0 + 750),
        two: take(2, t0 + 750),
        // Long idle: capped at 4, not 40.
        capped: [take(4, t0 + 10_750), take(1, t0 + 10_750)],
        // More than the capacity can never be taken; the wait says how long the bucket would need.
        huge: take(6, t0 + 20_000),
      };
    });
    expect(answers.full).toEqual([{ ok: true }, { ok: true }]);
    expect(answers.empty).toEqual({ ok: false, retryAfterMs: 250 });
    expect(answers.quarter).toEqual({ ok: true });
    expect(answers.tooMany).toEqual({ ok: false, retryAfterMs: 250 });
    expect(answers.two).toEqual({ ok: true });
    expect(answers.capped).toEqual([{ ok: true }, { ok: false, retryAfterMs: 250 }]);
    expect(answers.huge).toEqual({ ok: false, retryAfterMs: 500 });
  });

  it('takes from every bucket or from none (takeAllTokens, admitRequest)', async () => {
    const org = await keyOrg('rl-all');
    const result = await inLedger(org.orgId, (sql) => {
      const t = 5_000_000;
      const a = { name: 'all:a', capacity: 2, periodMs: 1000, count: 1 };
      const b = { name: 'all:b', capacity: 1, periodMs: 1000, count: 1 };
      const first = takeAllTokens(sql, [a, b], t);
      // b is empty now: a must keep its token.
      const second = takeAllTokens(sql, [a, b], t);
      const aAlone = [takeTokens(sql, 'all:a', 2, 1000, 1, t), takeTokens(sql, 'all:a', 2, 1000, 1, t)];
      // The organisation's bucket is shared by its keys: key 1 and 2 spend it together.
      const admissions = [admitRequest(sql, 1, LIMITS, t), admitRequest(sql, 2, LIMITS, t), admitRequest(sql, 1, LIMITS, t), admitRequest(sql, 2, LIMITS, t)];
      const roomy = { ...LIMITS, orgRequestsPerSecond: 100 };
      const keyLimited = [admitRequest(sql, 7, roomy, t + 5000), admitRequest(sql, 7, roomy, t + 5000), admitRequest(sql, 7, roomy, t + 5000)];
      // Messages per hour: a batch of 60 against the key's 100 and the organisation's 1,000, all or none.
      const messages = [
        admitMessages(sql, 9, LIMITS, 60, t),
        admitMessages(sql, 9, LIMITS, 60, t),
        admitMessages(sql, 9, LIMITS, 40, t),
        // The operator lowered the organisation's limit to 150: its bucket holds no more than that now.
        admitMessages(sql, 10, { ...LIMITS, keyMessagesPerHour: 1000, orgMessagesPerHour: 150 }, 160, t),
        admitMessages(sql, 10, { ...LIMITS, keyMessagesPerHour: 1000, orgMessagesPerHour: 150 }, 150, t),
      ];
      return { first, second, aAlone, admissions, keyLimited, messages };
    });
    expect(result.first).toEqual({ ok: true });
    expect(result.second).toEqual({ ok: false, index: 1, retryAfterMs: 1000 });
    expect(result.aAlone).toEqual([{ ok: true }, { ok: false, retryAfterMs: 500 }]);
    expect(result.admissions).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
      { ok: false, limit: 'org_requests_per_second', capacity: 3, retryAfterMs: 334 },
    ]);
    expect(result.messages).toEqual([
      { ok: true },
      // 40 left of the key's 100: 20 more would come in 12 minutes (100 an hour).
      { ok: false, limit: 'key_messages_per_hour', capacity: 100, retryAfterMs: 720_000 },
      { ok: true },
      // Key 10 is fresh, but 160 is more than the organisation's 150: nothing is taken, and 150 then fit.
      { ok: false, limit: 'org_messages_per_hour', capacity: 150, retryAfterMs: 240_000 },
      { ok: true },
    ]);
    expect(result.keyLimited).toEqual([{ ok: true }, { ok: true }, { ok: false, limit: 'key_requests_per_second', capacity: 2, retryAfterMs: 500 }]);
  });

  it('answers a refusal as a 429 naming the limit, with Retry-After in whole seconds, at least 1', () => {
    const short = apiLimitError({ limit: 'key_requests_per_second', capacity: 20, retryAfterMs: 40 });
    expect(short.status).toBe(429);
    expect(short.code).toBe('rate_limited');
    expect(short.headers).toEqual({ 'Retry-After': '1' });
    expect(short.message).toMatch(/^This key's limit of 20 requests per second/);
    const long = apiLimitError({ limit: 'org_messages_per_hour', capacity: 50000, retryAfterMs: 7_201 });
    expect(long.headers).toEqual({ 'Retry-After': '8' });
    expect(long.message).toMatch(/^The organisation's limit of 50,000 messages per hour/);
    expect(apiLimitError({ limit: 'key_messages_per_hour', capacity: 10, retryAfterMs: 0 }).message).toMatch(/^This key's limit of 10 messages per hour/);
    expect(apiLimitError({ limit: 'org_requests_per_second', capacity: 100, retryAfterMs: 1 }).message).toMatch(
      /^The organisation's limit of 100 requests per second/,
    );
  });
});

describe('request limits over HTTP', () => {
  /** Calls until the first 429 (at most `max` calls); answers the calls admitted before it and the refusal. */
  async function untilRefused(domain: string, keys: string[], max = 12) {
    let admitted = 0;
    for (let i = 0; i < max; i++) {
      const res = await withKey(domain, keys[i % keys.length], '/api/v1/tag');
      if (res.status === 429) return { admitted, refusal: res };
      expect(res.status).toBe(200);
      admitted++;
    }
    throw new Error(`no 429 in ${max} calls`);
  }

  it("a key past its requests per second gets 429 with Retry-After naming the key's limit, and gets through again after it", async () => {
    const org = await keyOrg('rl-key');
    await setLimits('rl-key', { key_requests_per_second: 2 });
    const key = await newKey(org, 'read');
    const { admitted, refusal } = await untilRefused('rl-key', [key.key]);
    expect(admitted).toBeGreaterThanOrEqual(2);
    expect(refusal.headers.get('retry-after')).toBe('1');
    const error = (await body(refusal)).error;
    expect(error.code).toBe('rate_limited');
    expect(error.message).toMatch(/^This key's limit of 2 requests per second was reached/);
    // Another key of the organisation is not held back by this key's limit.
    const other = await newKey(org, 'read');
    expect((await withKey('rl-key', other.key, '/api/v1/tag')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await withKey('rl-key', key.key, '/api/v1/tag')).status).toBe(200);
  });

  it("the organisation's limit holds all its keys together, and leaves other organisations alone", async () => {
    const org = await keyOrg('rl-org');
    await setLimits('rl-org', { org_requests_per_second: 3, key_requests_per_second: 1000 });
    const keys = [(await newKey(org, 'read')).key, (await newKey(org, 'read')).key, (await newKey(org, 'read')).key];
    const { admitted, refusal } = await untilRefused('rl-org', keys);
    expect(admitted).toBeGreaterThanOrEqual(3);
    expect(refusal.headers.get('retry-after')).toBe('1');
    expect((await body(refusal)).error.message).toMatch(/^The organisation's limit of 3 requests per second was reached/);

    const elsewhere = await keyOrg('rl-else');
    const theirs = await newKey(elsewhere, 'read');
    expect((await withKey('rl-else', theirs.key, '/api/v1/tag')).status).toBe(200);
    // The console's own calls have no such limit.
    expect((await withKey('rl-org', org.token, '/api/v1/tag')).status).toBe(200);
  });
});

describe('the operator sets the limits', () => {
  it('answers the defaults, changes some and keeps the rest', async () => {
    await keyOrg('rl-op');
    const read = await operator('GET', '/organizations/rl-op/api-limits');
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      domain: 'rl-op',
      key_requests_per_second: 20,
      key_messages_per_hour: 10000,
      org_requests_per_second: 100,
      org_messages_per_hour: 50000,
    });
    const changed = await setLimits('rl-op', { key_messages_per_hour: 500, org_requests_per_second: 7 });
    expect(changed).toEqual({ ...read.body.data, key_messages_per_hour: 500, org_requests_per_second: 7 });
    expect((await operator('GET', '/organizations/rl-op/api-limits')).body.data).toEqual(changed);
    const row = await env.DB.prepare('SELECT api_key_messages_per_hour AS mph, api_org_requests_per_second AS rps FROM organizations WHERE domain = ?')
      .bind('rl-op')
      .first();
    expect(row).toEqual({ mph: 500, rps: 7 });
  });

  it('refuses bad limits with field messages, an unknown organisation with 404, and callers without the token', async () => {
    await keyOrg('rl-opbad');
    for (const [json, field] of [
      [{ key_requests_per_second: 0 }, 'key_requests_per_second'],
      [{ key_requests_per_second: 1.5 }, 'key_requests_per_second'],
      [{ org_messages_per_hour: '100' }, 'org_messages_per_hour'],
      [{ org_requests_per_second: 100_001 }, 'org_requests_per_second'],
      [{ key_messages_per_hour: -1 }, 'key_messages_per_hour'],
      [{ requests: 5 }, '_'],
      [{}, '_'],
    ] as [unknown, string][]) {
      const res = await operator('PUT', '/organizations/rl-opbad/api-limits', json);
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(Object.keys(res.body.error.fields), JSON.stringify(json)).toContain(field);
    }
    expect((await operator('PUT', '/organizations/rl-opbad/api-limits', { key_requests_per_second: 0 })).body.error.fields.key_requests_per_second).toEqual([
      'Must be a whole number from 1 to 10,000',
    ]);
    expect((await operator('GET', '/organizations/nobody-here/api-limits')).status).toBe(404);
    expect((await operator('PUT', '/organizations/nobody-here/api-limits', { key_requests_per_second: 5 })).status).toBe(404);
    const stranger = await platform('/api/v1/operator/organizations/rl-opbad/api-limits', {
      method: 'PUT',
      json: { key_requests_per_second: 1 },
      token: 'nope',
    });
    expect(stranger.status).toBe(401);
    expect((await operator('GET', '/organizations/rl-opbad/api-limits')).body.data.key_requests_per_second).toBe(20);
  });
});
