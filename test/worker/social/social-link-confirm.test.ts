import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DEMO_LOGIN, DEMO_PASSWORD } from '../../../src/modules/demo/demo-info';
import { sha256Hex } from '../../../src/lib/tokens';
import { MESSAGES } from '../../../src/shared/messages';
import { addUser, call, createOrg, signIn } from '../helpers';
import { confirmLink, PROVIDER, socialFlow } from './flow';

// Link CSRF: the callback only verifies; the link happens when the signed-in user who started it confirms it.

const linkCount = (orgId: number) => env.DB.prepare('SELECT count(*) AS n FROM social_accounts WHERE org_id = ?').bind(orgId).first('n');

interface StateRow {
  org_id: number;
  provider: string;
  action: string;
  user_id: number;
  verified_at: string | null;
  subject: string | null;
  email: string | null;
  display_name: string | null;
  expires_at: string;
}

const stateRow = async (state: string) =>
  env.DB.prepare('SELECT org_id, provider, action, user_id, verified_at, subject, email, display_name, expires_at FROM oauth_states WHERE state_hash = ?')
    .bind(await sha256Hex(state))
    .first<StateRow>();

/** Signs the owner in and runs the provider part of a link for `subject`: answers the state the callback handed back. */
async function verifiedLink(domain: string, subject: string) {
  const org = await createOrg(domain);
  const tokens = await signIn(org.domain, org.username);
  const { location } = await socialFlow(org.domain, 'link', subject, tokens.access_token);
  const state = location!.searchParams.get('state')!;
  expect(location!.searchParams.get('error')).toBeNull();
  return { org, tokens, state };
}

async function expectInvalid(res: Response) {
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error: { code: 'link_invalid', message: MESSAGES.socialStateInvalid } });
}

describe('social link confirmation', () => {
  it('the callback links nothing: it keeps the verified identity under the state for ten fresh minutes', async () => {
    const { org, state } = await verifiedLink('social-confirm-keep', 'keep-1');
    expect(await linkCount(org.orgId)).toBe(0);
    const row = await stateRow(state);
    expect(row).toMatchObject({
      org_id: org.orgId,
      provider: PROVIDER,
      action: 'link',
      user_id: org.userId,
      subject: 'keep-1',
      email: 'keep-1@mock.test',
      display_name: 'Mock keep-1',
    });
    expect(row!.verified_at).toBeTruthy();
    const ttl = Date.parse(row!.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM activity_log WHERE org_id = ?').bind(org.orgId).first('n')).toBe(0);
  });

  it('links once for the user who started it; a replay is refused', async () => {
    const { org, tokens, state } = await verifiedLink('social-confirm-once', 'once-1');
    const res = await confirmLink(org.domain, state, { token: tokens.access_token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { status: 'social-link', provider: PROVIDER } });
    expect(await linkCount(org.orgId)).toBe(1);
    expect(await stateRow(state)).toBeNull();
    const log = await env.DB.prepare('SELECT user_id, entity, action, field, new_value FROM activity_log WHERE org_id = ?').bind(org.orgId).all();
    expect(log.results).toEqual([{ user_id: org.userId, entity: 'social_account', action: 'create', field: PROVIDER, new_value: 'once-1@mock.test' }]);

    await expectInvalid(await confirmLink(org.domain, state, { token: tokens.access_token }));
    expect(await linkCount(org.orgId)).toBe(1);
  });

  it("another user's session in the same organisation cannot use the state; the owner still can", async () => {
    const { org, tokens, state } = await verifiedLink('social-confirm-other', 'victim-1');
    await addUser(org.orgId, 'other@social-confirm-other.test');
    const other = await signIn(org.domain, 'other@social-confirm-other.test');
    await expectInvalid(await confirmLink(org.domain, state, { token: other.access_token }));
    expect(await linkCount(org.orgId)).toBe(0);
    expect(await stateRow(state)).not.toBeNull();
    expect((await confirmLink(org.domain, state, { token: tokens.access_token })).status).toBe(200);
    const rows = await env.DB.prepare('SELECT user_id FROM social_accounts WHERE org_id = ?').bind(org.orgId).all();
    expect(rows.results).toEqual([{ user_id: org.userId }]);
  });

  it('refuses expired, unverified, unknown states and states of another provider', async () => {
    const { org, tokens, state } = await verifiedLink('social-confirm-bad', 'bad-1');
    const token = tokens.access_token;

    // Another provider's path: 404 for one not configured; a row of another provider does not match either.
    expect((await confirmLink(org.domain, state, { token, provider: 'github' })).status).toBe(404);
    await env.DB.prepare("UPDATE oauth_states SET provider = 'github' WHERE state_hash = ?")
      .bind(await sha256Hex(state))
      .run();
    await expectInvalid(await confirmLink(org.domain, state, { token }));
    await env.DB.prepare('UPDATE oauth_states SET provider = ? WHERE state_hash = ?')
      .bind(PROVIDER, await sha256Hex(state))
      .run();

    // Expired.
    await env.DB.prepare("UPDATE oauth_states SET expires_at = '2000-01-01T00:00:00.000Z' WHERE state_hash = ?")
      .bind(await sha256Hex(state))
      .run();
    await expectInvalid(await confirmLink(org.domain, state, { token }));

    // Started but never verified by the provider (the raw state from authorize).
    const started = (await (await call(org.domain, `/api/v1/social/${PROVIDER}/authorize`, { method: 'POST', json: { action: 'link' }, token })).json()) as {
      data: { url: string };
    };
    const raw = new URL(started.data.url).searchParams.get('state')!;
    await expectInvalid(await confirmLink(org.domain, raw, { token }));
    expect(await stateRow(raw)).not.toBeNull();

    // A login state verified nothing either; a made-up one is unknown.
    await expectInvalid(await confirmLink(org.domain, 'made-up-state', { token }));
    expect(await linkCount(org.orgId)).toBe(0);
  });

  it('needs a console session: guests 401, API keys 403, tokens of another organisation 401', async () => {
    const { org, state } = await verifiedLink('social-confirm-auth', 'auth-1');
    expect((await confirmLink(org.domain, state)).status).toBe(401);
    expect((await confirmLink(org.domain, state, { token: 'not-a-jwt' })).status).toBe(401);
    const key = 'test-api-key-for-social-confirm-auth';
    await env.DB.prepare('INSERT INTO api_keys (org_id, user_id, name, key_hash) VALUES (?, ?, ?, ?)')
      .bind(org.orgId, org.userId, 'test-api', await sha256Hex(key))
      .run();
    expect((await confirmLink(org.domain, state, { headers: { 'x-api-key': `${org.username}:${key}` } })).status).toBe(403);
    const b = await createOrg('social-confirm-auth-b');
    const bTokens = await signIn(b.domain, b.username);
    expect((await confirmLink(org.domain, state, { token: bTokens.access_token })).status).toBe(401);
    expect(await linkCount(org.orgId)).toBe(0);
    expect(await stateRow(state)).not.toBeNull();
  });

  it('refuses malformed input with 4xx, never 500', async () => {
    const { org, tokens } = await verifiedLink('social-confirm-input', 'input-1');
    const token = tokens.access_token;
    const path = `/api/v1/social/${PROVIDER}/link`;
    const empty = await confirmLink(org.domain, '', { token });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { error: { fields: Record<string, string[]> } }).error.fields.state).toEqual([MESSAGES.required]);
    expect((await confirmLink(org.domain, 42, { token })).status).toBe(422);
    expect((await confirmLink(org.domain, 'x'.repeat(513), { token })).status).toBe(422);
    expect((await call(org.domain, path, { method: 'POST', json: {}, token })).status).toBe(422);
    expect((await call(org.domain, path, { method: 'POST', json: { state: 'a', extra: 1 }, token })).status).toBe(422);
    expect((await call(org.domain, path, { method: 'POST', json: [], token })).status).toBe(422);
    expect((await call(org.domain, path, { method: 'POST', body: 'state=a', token })).status).toBe(415);
    expect((await call(org.domain, path, { method: 'POST', body: '{', headers: { 'content-type': 'application/json' }, token })).status).toBe(400);
    expect((await confirmLink(org.domain, 'abc', { token, provider: 'nope' })).status).toBe(404);
    expect(await linkCount(org.orgId)).toBe(0);
  });

  it('is locked in the demo', async () => {
    const demo = await signIn('demo', DEMO_LOGIN, DEMO_PASSWORD);
    const res = await confirmLink('demo', 'any-state', { token: demo.access_token });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'demo_locked' } });
  });
});
