import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrg, signIn } from '../helpers';
import type { GuestInit } from '../../../src/shared/contracts/auth';
import { atProvider, authorize, confirmLink, dataOf, openCallback, PROVIDER, providerUrl } from './flow';

const linkCount = (orgId: number) => env.DB.prepare('SELECT count(*) AS n FROM social_accounts WHERE org_id = ?').bind(orgId).first('n');

async function expectLinkInvalid(res: Response) {
  expect(res.status).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  expect(await res.json()).toMatchObject({ error: { code: 'link_invalid' } });
}

describe('oauth state', () => {
  it('is single use: a replayed callback fails', async () => {
    const org = await createOrg('social-state-replay');
    const tokens = await signIn(org.domain, org.username);
    const callback = await atProvider(await providerUrl(org.domain, 'link', tokens.access_token), 'replay-1');
    const first = await openCallback(callback);
    expect(first.status).toBe(302);
    expect(new URL(first.headers.get('location')!).searchParams.get('error')).toBeNull();
    // A verified link waiting for its confirmation is not a callback's any more.
    await expectLinkInvalid(await openCallback(callback));
    expect(await linkCount(org.orgId)).toBe(0);
    // The replay did not burn it: the user who started it still confirms it.
    expect((await confirmLink(org.domain, callback.searchParams.get('state'), { token: tokens.access_token })).status).toBe(200);
    expect(await linkCount(org.orgId)).toBe(1);
  });

  it('expires after ten minutes', async () => {
    const org = await createOrg('social-state-expired');
    const tokens = await signIn(org.domain, org.username);
    const callback = await atProvider(await providerUrl(org.domain, 'link', tokens.access_token), 'expired-1');
    await env.DB.prepare("UPDATE oauth_states SET expires_at = '2000-01-01T00:00:00.000Z' WHERE org_id = ?").bind(org.orgId).run();
    await expectLinkInvalid(await openCallback(callback));
    expect(await linkCount(org.orgId)).toBe(0);
  });

  it('belongs to one provider: another provider path fails and burns it', async () => {
    const org = await createOrg('social-state-provider');
    const tokens = await signIn(org.domain, org.username);
    const callback = await atProvider(await providerUrl(org.domain, 'link', tokens.access_token), 'provider-1');
    const wrong = new URL(callback);
    wrong.pathname = '/api/v1/social/callback/github';
    await expectLinkInvalid(await openCallback(wrong));
    await expectLinkInvalid(await openCallback(callback));
    expect(await linkCount(org.orgId)).toBe(0);
  });

  it('refuses missing, unknown and oversized states', async () => {
    const base = `http://localhost:8787/api/v1/social/callback/${PROVIDER}`;
    await expectLinkInvalid(await openCallback(`${base}?code=abc`));
    await expectLinkInvalid(await openCallback(`${base}?code=abc&state=made-up`));
    await expectLinkInvalid(await openCallback(`${base}?state=${'x'.repeat(600)}`));
    await expectLinkInvalid(await openCallback(`${base}?error=access_denied`));
  });

  it('carries its organisation: a state of org A only ever acts in org A', async () => {
    const a = await createOrg('social-state-ta');
    const b = await createOrg('social-state-tb');
    const aTokens = await signIn(a.domain, a.username);
    // Started on A's host (by A's user): wherever the callback is opened, it links in A and returns to A.
    const callback = await atProvider(await providerUrl(a.domain, 'link', aTokens.access_token), 'carry-1');
    const onB = new URL(callback);
    onB.host = 'social-state-tb.localhost:8787';
    const res = await openCallback(onB);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe('http://social-state-ta.localhost:8787');
    const state = location.searchParams.get('state');
    // B's user cannot confirm A's link on B's host; A's user confirms it on A's host.
    const bTokens = await signIn(b.domain, b.username);
    expect((await confirmLink(b.domain, state, { token: bTokens.access_token })).status).toBe(400);
    expect((await confirmLink(a.domain, state, { token: aTokens.access_token })).status).toBe(200);
    expect(await linkCount(a.orgId)).toBe(1);
    expect(await linkCount(b.orgId)).toBe(0);
  });
});

describe('authorize input', () => {
  it('answers 404 for unknown or unconfigured providers and 4xx for bad bodies', async () => {
    const org = await createOrg('social-authorize-bad');
    expect((await authorize(org.domain, 'login', { provider: 'github' })).status).toBe(404);
    expect((await authorize(org.domain, 'login', { provider: 'google' })).status).toBe(404);
    expect((await authorize(org.domain, 'login', { provider: 'nope' })).status).toBe(404);

    const bad = await authorize(org.domain, 'bogus');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { fields: Record<string, string[]> } }).error.fields.action).toEqual(['action must be login or link']);
    const path = `/api/v1/social/${PROVIDER}/authorize`;
    expect((await call(org.domain, path, { method: 'POST', json: { action: 'login', extra: true } })).status).toBe(422);
    expect((await call(org.domain, path, { method: 'POST', json: [] })).status).toBe(422);
    expect((await call(org.domain, path, { method: 'POST', body: 'action=login' })).status).toBe(415);
    expect((await call(org.domain, path, { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await call('no-such-org', path, { method: 'POST', json: { action: 'login' } })).status).toBe(404);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM oauth_states WHERE org_id = ?').bind(org.orgId).first('n')).toBe(0);
  });

  it('lists providers only for signed-in users', async () => {
    const org = await createOrg('social-list-auth');
    expect((await call(org.domain, '/api/v1/social')).status).toBe(401);
    const guest = await call(org.domain, '/api/v1/init/guest');
    expect((await dataOf<GuestInit>(guest)).social_providers).toEqual([{ id: PROVIDER, name: 'Mock ID' }]);
  });
});
