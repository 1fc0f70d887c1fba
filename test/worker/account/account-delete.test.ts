import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { addUser, call, createOrg, signIn } from '../helpers';
import { activityOf, body, linkSocial, remindAndSettle } from './helpers';

const remove = (org: string, token: string, id: number, json: unknown) => call(org, `/api/v1/internal-user/${id}`, { method: 'DELETE', token, json });
const countOf = async (table: string, orgId: number) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE org_id = ?`).bind(orgId).first<{ n: number }>())!.n;

describe('account deletion', () => {
  it('refuses a confirmation that is not the login, and a missing one, with 422', async () => {
    const { userId, username } = await createOrg('del-confirm');
    const { access_token } = await signIn('del-confirm', username);
    for (const json of [{ confirm: 'someone@else.test' }, { confirm: '' }, {}, { confirm: username, extra: 1 }]) {
      const res = await remove('del-confirm', access_token, userId, json);
      expect(res.status).toBe(422);
      expect((await body(res)).error.code).toBe('validation_failed');
    }
    const res = await remove('del-confirm', access_token, userId, { confirm: 'nope' });
    expect(Object.keys((await body(res)).error.fields)).toEqual(['confirm']);
    expect((await call('del-confirm', '/api/v1/internal-user/me', { token: access_token })).status).toBe(200);
  });

  it('deletes a member with their sessions, codes, key and social accounts; the organisation stays', async () => {
    const { orgId, userId: ownerId } = await createOrg('del-member');
    const memberId = await addUser(orgId, 'member@del.test');
    await linkSocial(orgId, memberId);
    const member = await signIn('del-member', 'member@del.test');
    await call('del-member', '/api/v1/internal-api-key', { method: 'POST', token: member.access_token, json: {} });
    await remindAndSettle('del-member', 'member@del.test');
    const other = await signIn('del-member', 'owner@del-member.test');

    const res = await remove('del-member', member.access_token, memberId, { confirm: 'MEMBER@del.test' });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ data: { deleted: true, organization_deleted: false } });
    expect((await call('del-member', '/api/v1/internal-user/me', { token: member.access_token })).status).toBe(401);
    for (const table of ['sessions', 'api_keys', 'social_accounts', 'one_time_codes']) {
      const n = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(memberId).first<{ n: number }>();
      expect(n!.n, table).toBe(0);
    }
    expect((await call('del-member', '/api/v1/internal-user/me', { token: other.access_token })).status).toBe(200);
    await expect(signIn('del-member', 'member@del.test')).rejects.toThrow(/401/);
    expect(await activityOf(orgId, 'user')).toEqual([
      expect.objectContaining({ user_id: memberId, entity_id: memberId, action: 'delete', field: 'username', previous_value: 'member@del.test' }),
    ]);
    void ownerId;
  });

  it("deletes the organisation with all its data and files when the last member leaves; others' stay", async () => {
    const gone = await createOrg('del-last');
    const kept = await createOrg('del-kept');
    const { access_token } = await signIn('del-last', gone.username);
    await call('del-last', '/api/v1/tag', { method: 'POST', token: access_token, json: { name: 'vip' } });
    const keptTokens = await signIn('del-kept', kept.username);
    await call('del-kept', '/api/v1/tag', { method: 'POST', token: keptTokens.access_token, json: { name: 'vip' } });
    await env.FILES.put(`orgs/${gone.orgId}/imports/a.csv`, 'a');
    await env.FILES.put(`orgs/${gone.orgId}/templates/1/b.pdf`, 'b');
    await env.FILES.put(`orgs/${kept.orgId}/imports/c.csv`, 'c');
    expect(await countOf('tags', gone.orgId)).toBe(1);

    const res = await remove('del-last', access_token, gone.userId, { confirm: gone.username });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ data: { deleted: true, organization_deleted: true } });

    const host = await call('del-last', '/api/v1/init/guest');
    expect(host.status).toBe(404);
    expect(await body(host)).toMatchObject({ error: { code: 'org_not_found' } });
    for (const table of ['users', 'sessions', 'tags']) expect(await countOf(table, gone.orgId), table).toBe(0);
    expect((await env.FILES.list({ prefix: `orgs/${gone.orgId}/` })).objects).toHaveLength(0);

    expect(await env.FILES.get(`orgs/${kept.orgId}/imports/c.csv`)).not.toBeNull();
    expect(await countOf('tags', kept.orgId)).toBe(1);
    expect((await call('del-kept', '/api/v1/internal-user/me', { token: keptTokens.access_token })).status).toBe(200);
  });

  it('needs a signed-in caller deleting themselves', async () => {
    const a = await createOrg('del-tena');
    const mateId = await addUser(a.orgId, 'mate@del.test');
    const { access_token } = await signIn('del-tena', a.username);
    expect((await remove('del-tena', access_token, mateId, { confirm: 'mate@del.test' })).status).toBe(404);
    expect((await call('del-tena', `/api/v1/internal-user/${a.userId}`, { method: 'DELETE', json: { confirm: a.username } })).status).toBe(401);
    expect(await countOf('users', a.orgId)).toBe(2);
  });
});
