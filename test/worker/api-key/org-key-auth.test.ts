// Calls made with an organisation API key (issue 36): `Authorization: Bearer rk_...` is told from a JWT by its prefix
// before the JWT path; unknown and revoked keys are a 401; a key names its organisation, so another organisation's host
// or X-ORG is a 403 wrong_organization; its scope decides what it may call (403 scope); it has no user, so the calls
// that need one refuse it; last_used_at moves at most once a minute, after the answer.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { forgetOrgKeys, LAST_USED_EVERY_MS } from '../../../src/modules/api-key/authenticate';
import { checkKeyScope, isSendRoute } from '../../../src/modules/api-key/scopes';
import { ORG_KEY_MESSAGES, SEND_SCOPE_ROUTES } from '../../../src/shared/contracts/org-api-key';
import { MESSAGES } from '../../../src/shared/messages';
import { body } from '../account/helpers';
import { appFetch, call } from '../helpers';
import { keyOrg, newKey, storedKey, withKey, withKeyAndXOrg } from './helpers';

const errorOf = async (res: Response) => (await body(res)).error as { code: string; message: string };

describe('the prefix is checked before the JWT path', () => {
  it('reads any rk_ bearer as an organisation key: unknown or malformed is a plain 401, never the session answer', async () => {
    const org = await keyOrg('ka-prefix');
    const key = await newKey(org, 'full');
    const unknownKey = `rk_live_${'A'.repeat(40)}`;
    for (const value of [unknownKey, 'rk_live_short', 'rk_', `rk_test_${key.key.slice(8)}`, `${key.key}x`]) {
      const res = await withKey('ka-prefix', value, '/api/v1/tag');
      expect(res.status, value).toBe(401);
      // The JWT path would say the session expired: this answer shows it never ran.
      expect(await errorOf(res), value).toEqual(expect.objectContaining({ code: 'unauthorized', message: MESSAGES.unauthorized }));
    }
    // Not an org key: still the JWT path and its answer.
    const jwtLike = await withKey('ka-prefix', 'not-a-jwt', '/api/v1/tag');
    expect(jwtLike.status).toBe(401);
    expect((await errorOf(jwtLike)).message).toBe(MESSAGES.sessionExpired);
    // The real key and the console's token both work.
    expect((await withKey('ka-prefix', key.key, '/api/v1/tag')).status).toBe(200);
    expect((await call('ka-prefix', '/api/v1/tag', { token: org.token })).status).toBe(200);
  });
});

describe('a key names its organisation', () => {
  it("works on its own host and with its own X-ORG; another organisation's host or X-ORG is a 403 wrong_organization", async () => {
    const a = await keyOrg('ka-own');
    const b = await keyOrg('ka-other');
    const key = await newKey(a, 'read');
    expect((await withKey('ka-own', key.key, '/api/v1/contact')).status).toBe(200);
    expect((await withKeyAndXOrg('ka-own', key.key, '/api/v1/contact')).status).toBe(200);
    for (const res of [await withKey('ka-other', key.key, '/api/v1/contact'), await withKeyAndXOrg('ka-other', key.key, '/api/v1/contact')]) {
      expect(res.status).toBe(403);
      expect(await errorOf(res)).toEqual(expect.objectContaining({ code: 'wrong_organization', message: ORG_KEY_MESSAGES.wrongOrganization }));
    }
    // B's data was never read: B's own key sees B's (empty) list, and B's host with A's key got nothing.
    const bKey = await newKey(b, 'read');
    expect((await body(await withKey('ka-other', bKey.key, '/api/v1/contact'))).meta.total).toBe(0);
    // An organisation that does not exist is a 404 before any key is looked at.
    expect((await withKeyAndXOrg('ka-nowhere', key.key, '/api/v1/contact')).status).toBe(404);
  });

  it('a revoked key is a 401 on every host', async () => {
    const a = await keyOrg('ka-rev');
    const key = await newKey(a, 'full');
    await call('ka-rev', `/api/v1/organization-api-key/${key.id}`, { method: 'DELETE', token: a.token });
    for (const res of [await withKey('ka-rev', key.key, '/api/v1/tag'), await withKeyAndXOrg('ka-rev', key.key, '/api/v1/tag')]) {
      expect(res.status).toBe(401);
    }
  });
});

describe('scopes', () => {
  it('a send key is refused everything but sending: GET /contact, POST /tag, GET /organization', async () => {
    const org = await keyOrg('ka-send');
    const key = await newKey(org, 'send');
    for (const [method, path, json] of [
      ['GET', '/api/v1/contact'],
      ['POST', '/api/v1/tag', { name: 'x' }],
      ['GET', '/api/v1/organization'],
      ['DELETE', '/api/v1/tag', { ids: [1] }],
    ] as [string, string, unknown?][]) {
      const res = await withKey('ka-send', key.key, path, { method, json });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await errorOf(res)).toEqual(expect.objectContaining({ code: 'scope', message: ORG_KEY_MESSAGES.sendScope }));
    }
    const tags = await env.DB.prepare('SELECT count(*) AS n FROM tags WHERE org_id = ?').bind(org.orgId).first<{ n: number }>();
    expect(tags!.n).toBe(0);
  });

  it('a read key may GET but not write; a full key may do both', async () => {
    const org = await keyOrg('ka-read');
    const read = await newKey(org, 'read');
    const full = await newKey(org, 'full');
    expect((await withKey('ka-read', read.key, '/api/v1/contact')).status).toBe(200);
    expect((await withKey('ka-read', read.key, '/api/v1/organization')).status).toBe(200);
    const refused = await withKey('ka-read', read.key, '/api/v1/tag', { method: 'POST', json: { name: 'x' } });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toEqual(expect.objectContaining({ code: 'scope', message: ORG_KEY_MESSAGES.readScope }));
    const made = await withKey('ka-read', full.key, '/api/v1/tag', { method: 'POST', json: { name: 'Made by a key' } });
    expect(made.status).toBe(201);
    const tagId = (await body(made)).data.id;
    expect((await withKey('ka-read', read.key, `/api/v1/tag/${tagId}`)).status).toBe(200);
    expect((await withKey('ka-read', read.key, `/api/v1/tag/${tagId}`, { method: 'DELETE' })).status).toBe(403);
    expect((await withKey('ka-read', full.key, `/api/v1/tag/${tagId}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('a test key keeps its scope too', async () => {
    const org = await keyOrg('ka-testkey');
    const key = await newKey(org, 'read', { test: true });
    expect((await withKey('ka-testkey', key.key, '/api/v1/tag')).status).toBe(200);
    expect((await withKey('ka-testkey', key.key, '/api/v1/tag', { method: 'POST', json: { name: 'x' } })).status).toBe(403);
  });

  it('the send scope allows exactly the calls of SEND_SCOPE_ROUTES', () => {
    expect(SEND_SCOPE_ROUTES).toEqual([
      { method: 'POST', path: '/send' },
      { method: 'POST', path: '/send/batch' },
    ]);
    for (const path of ['/api/v1/send', '/api/v1/send/', '/api/v1/send/batch']) {
      expect(isSendRoute('POST', path), path).toBe(true);
      expect(() => checkKeyScope({ scope: 'send' }, 'POST', path)).not.toThrow();
    }
    for (const [method, path] of [
      ['GET', '/api/v1/send'],
      ['POST', '/api/v1/sender'],
      ['POST', '/api/v1/send/batch/x'],
      ['POST', '/api/v1/template/1/test'],
      ['PUT', '/api/v1/send'],
    ]) {
      expect(isSendRoute(method, path), `${method} ${path}`).toBe(false);
      expect(() => checkKeyScope({ scope: 'send' }, method, path)).toThrow(ORG_KEY_MESSAGES.sendScope);
    }
    expect(() => checkKeyScope({ scope: 'read' }, 'POST', '/api/v1/send')).toThrow(ORG_KEY_MESSAGES.readScope);
    expect(() => checkKeyScope({ scope: 'read' }, 'HEAD', '/api/v1/tag')).not.toThrow();
    expect(() => checkKeyScope({ scope: 'full' }, 'DELETE', '/api/v1/tag/1')).not.toThrow();
  });
});

describe('a key has no user', () => {
  it('refuses the calls that need a person or a console session, with 403, and changes nothing', async () => {
    const org = await keyOrg('ka-nouser');
    const key = await newKey(org, 'full');
    const attempts: [string, string, unknown?][] = [
      ['GET', '/api/v1/init/user'],
      ['GET', '/api/v1/internal-user/me'],
      ['PUT', `/api/v1/internal-user/${org.userId}`, { name: 'N', email: 'n@ka.test' }],
      ['PUT', `/api/v1/internal-user/${org.userId}/password`, { current_password: 'Secret-123', password: 'Fresh-456!' }],
      ['PUT', '/api/v1/organization', { name: 'Pwned' }],
      ['GET', '/api/v1/session'],
      ['DELETE', '/api/v1/session', { ids: ['x'] }],
      ['GET', '/api/v1/internal-api-key'],
      ['POST', '/api/v1/internal-api-key', { note: 'x' }],
      ['GET', '/api/v1/social'],
      ['POST', '/api/v1/internal-auth/logout'],
    ];
    for (const [method, path, json] of attempts) {
      const res = await withKey('ka-nouser', key.key, path, { method, json });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect((await errorOf(res)).code, `${method} ${path}`).toBe('forbidden');
    }
    const orgRow = await env.DB.prepare('SELECT name FROM organizations WHERE id = ?').bind(org.orgId).first<{ name: string }>();
    expect(orgRow!.name).toBe('ka-nouser Inc');
    // What needs no user still answers: the organisation's settings, read.
    expect((await withKey('ka-nouser', key.key, '/api/v1/organization')).status).toBe(200);
  });
});

describe('last_used_at', () => {
  const keyCall = (domain: string, key: string) =>
    appFetch(new Request(`http://${domain}.localhost:8787/api/v1/tag`, { headers: { host: `${domain}.localhost:8787`, authorization: `Bearer ${key}` } }), {
      settle: true,
    });

  it('is set by the first call, kept within the minute, and moved by a call a minute later', async () => {
    const org = await keyOrg('ka-used');
    const key = await newKey(org, 'read');
    expect((await storedKey(key.id))!.last_used_at).toBeNull();
    const before = Date.now();
    expect((await keyCall('ka-used', key.key)).status).toBe(200);
    const first = (await storedKey(key.id))!.last_used_at as string;
    expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 5);

    for (let i = 0; i < 3; i++) expect((await keyCall('ka-used', key.key)).status).toBe(200);
    expect((await storedKey(key.id))!.last_used_at).toBe(first);

    const longAgo = new Date(Date.now() - LAST_USED_EVERY_MS - 1000).toISOString();
    await env.DB.prepare('UPDATE org_api_keys SET last_used_at = ? WHERE id = ?').bind(longAgo, key.id).run();
    // A minute on, this isolate's copy of the key (kept 5 s) is long gone.
    forgetOrgKeys(org.orgId);
    expect((await keyCall('ka-used', key.key)).status).toBe(200);
    const moved = (await storedKey(key.id))!.last_used_at as string;
    expect(Date.parse(moved)).toBeGreaterThan(Date.parse(longAgo) + LAST_USED_EVERY_MS);
    // The list shows it.
    const listed = (await body(await call('ka-used', '/api/v1/organization-api-key', { token: org.token }))).items[0];
    expect(listed.last_used_at).toBe(moved);
  });

  it('costs no D1 write on a call within the minute (the request is admitted in the ledger)', async () => {
    const org = await keyOrg('ka-nowrite');
    const key = await newKey(org, 'read');
    expect((await keyCall('ka-nowrite', key.key)).status).toBe(200);
    const meter = { statements: 0, rowsRead: 0, rowsWritten: 0, writers: {} as Record<string, number> };
    (globalThis as { __relayD1Meter?: unknown }).__relayD1Meter = meter;
    try {
      for (let i = 0; i < 3; i++) expect((await keyCall('ka-nowrite', key.key)).status).toBe(200);
    } finally {
      delete (globalThis as { __relayD1Meter?: unknown }).__relayD1Meter;
    }
    expect(meter.statements).toBeGreaterThan(0);
    expect(Object.keys(meter.writers).filter((statement) => /org_api_keys|api_buckets/i.test(statement))).toEqual([]);
  });
});
