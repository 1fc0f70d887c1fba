import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { addUser, call, createOrg, signIn } from '../helpers';
import { activityOf, body } from './helpers';

const list = (org: string, token: string) => call(org, '/api/v1/session', { token });
const revokeOne = (org: string, token: string, id: string) => call(org, `/api/v1/session/${id}`, { method: 'DELETE', token });
const revokeMany = (org: string, token: string, json: unknown) => call(org, '/api/v1/session', { method: 'DELETE', token, json });
const idOf = async (org: string, token: string) =>
  ((await body(await list(org, token))).items as { id: string; current: boolean }[]).find((s) => s.current)!.id;

describe('sessions', () => {
  it('lists live sessions newest first with the current one flagged, hiding revoked, expired and others', async () => {
    const { orgId, username } = await createOrg('ses-list');
    const other = await addUser(orgId, 'other@ses.test');
    await signIn('ses-list', 'other@ses.test');
    const first = await signIn('ses-list', username);
    const gone = await signIn('ses-list', username);
    await call('ses-list', '/api/v1/internal-auth/logout', { method: 'POST', token: gone.access_token });
    const expired = await signIn('ses-list', username);
    const expiredId = await idOf('ses-list', expired.access_token);
    await env.DB.prepare('UPDATE sessions SET expires_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), expiredId)
      .run();
    // Distinct creation times, so the order is defined.
    await env.DB.prepare("UPDATE sessions SET created_at = '2020-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(await idOf('ses-list', first.access_token))
      .run();
    const current = await call('ses-list', '/api/v1/internal-auth/token-create', {
      method: 'POST',
      json: { username, password: 'Secret-123' },
      headers: { 'x-device': 'relay-console:dev1', 'user-agent': 'Agent/2', 'cf-connecting-ip': '198.51.100.7' },
    });
    const tokens = await body(current);

    const res = await list('ses-list', tokens.access_token);
    expect(res.status).toBe(200);
    const answer = await body(res);
    expect(answer.meta).toEqual({ total: 2, page: 1, page_size: 2, total_pages: 1 });
    expect(answer.items).toHaveLength(2);
    expect(answer.items[0]).toMatchObject({ current: true, loggedIn: true, device: 'relay-console:dev1', user_agent: 'Agent/2', ip: '198.51.100.7' });
    expect(answer.items[1]).toMatchObject({ current: false, loggedIn: false, created_at: '2020-01-01T00:00:00.000Z' });
    expect(Object.keys(answer.items[0]).sort()).toEqual(
      ['created_at', 'current', 'device', 'expires_at', 'id', 'ip', 'loggedIn', 'refreshes_at', 'updated_at', 'user_agent'].sort(),
    );
    expect(JSON.stringify(answer)).not.toMatch(/refresh_hash|[0-9a-f]{64}/);
    void other;
  });

  it('revokes one own session: its tokens stop working at once', async () => {
    const { orgId, username } = await createOrg('ses-one');
    const mine = await signIn('ses-one', username);
    const victim = await signIn('ses-one', username);
    const victimId = await idOf('ses-one', victim.access_token);
    const res = await revokeOne('ses-one', mine.access_token, victimId);
    expect(res.status).toBe(200);
    expect((await call('ses-one', '/api/v1/internal-user/me', { token: victim.access_token })).status).toBe(401);
    const refreshed = await call('ses-one', '/api/v1/internal-auth/token-refresh', { method: 'POST', headers: { 'x-refresh': victim.refresh_token } });
    expect(refreshed.status).toBe(401);
    expect((await list('ses-one', mine.access_token)).status).toBe(200);
    // Already revoked: not found.
    expect((await revokeOne('ses-one', mine.access_token, victimId)).status).toBe(404);
    expect(await activityOf(orgId, 'session')).toEqual([expect.objectContaining({ action: 'update', field: 'revoked', new_value: victimId })]);
  });

  it('revoking the current session ends it at once', async () => {
    const { username } = await createOrg('ses-self');
    const mine = await signIn('ses-self', username);
    expect((await revokeOne('ses-self', mine.access_token, await idOf('ses-self', mine.access_token))).status).toBe(200);
    expect((await list('ses-self', mine.access_token)).status).toBe(401);
  });

  it("cannot see or revoke another user's or organisation's sessions (404, untouched)", async () => {
    const a = await createOrg('ses-tena');
    const b = await createOrg('ses-tenb');
    await addUser(a.orgId, 'mate@ses.test');
    const mine = await signIn('ses-tena', a.username);
    const mate = await signIn('ses-tena', 'mate@ses.test');
    const foreign = await signIn('ses-tenb', b.username);
    const mateId = await idOf('ses-tena', mate.access_token);
    const foreignId = await idOf('ses-tenb', foreign.access_token);
    expect((await body(await list('ses-tena', mine.access_token))).items.map((s: { id: string }) => s.id)).not.toContain(mateId);
    for (const id of [mateId, foreignId, 'not-a-session']) {
      const res = await revokeOne('ses-tena', mine.access_token, id);
      expect(res.status).toBe(404);
      expect(await body(res)).toMatchObject({ error: { code: 'not_found' } });
    }
    // Bulk: others' ids are ignored.
    const bulk = await revokeMany('ses-tena', mine.access_token, { ids: [mateId, foreignId] });
    expect(await body(bulk)).toEqual({ data: { deleted: 0 } });
    expect((await call('ses-tena', '/api/v1/internal-user/me', { token: mate.access_token })).status).toBe(200);
    expect((await call('ses-tenb', '/api/v1/internal-user/me', { token: foreign.access_token })).status).toBe(200);
    // Org B's token does not work on org A's host at all.
    expect((await list('ses-tena', foreign.access_token)).status).toBe(401);
  });

  it('revokes many own sessions at once, ignoring ids that are not the caller’s', async () => {
    const { orgId, username } = await createOrg('ses-many');
    const mine = await signIn('ses-many', username);
    const s1 = await signIn('ses-many', username);
    const s2 = await signIn('ses-many', username);
    const keep = await signIn('ses-many', username);
    const ids = [await idOf('ses-many', s1.access_token), await idOf('ses-many', s2.access_token)];
    const res = await revokeMany('ses-many', mine.access_token, { ids: [...ids, 'nobody'] });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ data: { deleted: 2 } });
    for (const t of [s1, s2]) expect((await call('ses-many', '/api/v1/internal-user/me', { token: t.access_token })).status).toBe(401);
    expect((await call('ses-many', '/api/v1/internal-user/me', { token: keep.access_token })).status).toBe(200);
    expect((await body(await list('ses-many', mine.access_token))).meta.total).toBe(2);
    expect((await activityOf(orgId, 'session')).map((r) => r.new_value).sort()).toEqual([...ids].sort());
  });

  it('refuses malformed bulk bodies with a 4xx', async () => {
    const { username } = await createOrg('ses-bad');
    const mine = await signIn('ses-bad', username);
    for (const json of [{}, { ids: [] }, { ids: 'x' }, { ids: [1, 2] }, { ids: ['a'], all: true }, [], null]) {
      const res = await revokeMany('ses-bad', mine.access_token, json);
      expect(res.status).toBe(422);
    }
    expect((await revokeMany('ses-bad', mine.access_token, { ids: Array.from({ length: 101 }, (_, i) => `s${i}`) })).status).toBe(422);
    const noType = await call('ses-bad', '/api/v1/session', { method: 'DELETE', token: mine.access_token, body: '{"ids":["a"]}' });
    expect(noType.status).toBe(415);
    expect((await list('ses-bad', mine.access_token)).status).toBe(200);
    expect((await call('ses-bad', '/api/v1/session')).status).toBe(401);
  });
});
