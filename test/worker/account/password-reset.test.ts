import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/shared/messages';
import { call, createOrg, latestMail, mailCount, PASSWORD, signIn } from '../helpers';
import { activityOf, body, remindAndSettle, resetCodeFrom } from './helpers';

const NEW_PASSWORD = 'Fresh-456';
const remind = remindAndSettle;
const reset = (org: string, json: unknown) => call(org, '/api/v1/internal-user/password-reset', { method: 'POST', json });

describe('password remind', () => {
  it('emails a one-hour reset link on the organisation host, storing only a hash of the code', async () => {
    const { username, orgId } = await createOrg('pwr-mail');
    const res = await remind('pwr-mail', username.toUpperCase());
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ data: { message: MESSAGES.resetRequested } });
    const text = await latestMail(username);
    expect(text).toContain('http://pwr-mail.localhost:8787/password-reset?code=');
    const code = await resetCodeFrom(username);
    const row = await env.DB.prepare('SELECT * FROM one_time_codes WHERE org_id = ?').bind(orgId).first<Record<string, string>>();
    expect(row).toMatchObject({ purpose: 'password_reset', used_at: null });
    expect(row!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.code_hash).not.toContain(code);
    const ttl = Date.parse(row!.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(55 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it('answers an unknown address exactly like a known one, and sends nothing', async () => {
    await createOrg('pwr-ghost');
    const res = await remind('pwr-ghost', 'ghost@nowhere.test');
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ data: { message: MESSAGES.resetRequested } });
    expect(await mailCount('ghost@nowhere.test')).toBe(0);
  });

  it("does not mail a user of another organisation asked for on this one's host", async () => {
    const a = await createOrg('pwr-orga', 'shared-a@x.test');
    await createOrg('pwr-orgb');
    const res = await remind('pwr-orgb', a.username);
    expect(res.status).toBe(200);
    expect(await mailCount(a.username)).toBe(0);
  });

  it('stops mailing past five requests an hour, with the same answer', async () => {
    const { username } = await createOrg('pwr-limit');
    for (let i = 0; i < 7; i++) {
      const res = await remind('pwr-limit', username);
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual({ data: { message: MESSAGES.resetRequested } });
    }
    expect(await mailCount(username)).toBe(5);
  });

  it('refuses malformed input with a 4xx, never a 500', async () => {
    await createOrg('pwr-bad');
    expect((await remind('pwr-bad', '')).status).toBe(422);
    expect((await call('pwr-bad', '/api/v1/internal-user/password-remind', { method: 'POST', json: { email: 5 } })).status).toBe(422);
    expect((await call('pwr-bad', '/api/v1/internal-user/password-remind', { method: 'POST', json: { email: 'a@b.c', x: 1 } })).status).toBe(422);
    const garbage = await call('pwr-bad', '/api/v1/internal-user/password-remind', {
      method: 'POST',
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(garbage.status).toBe(400);
    expect((await call('pwr-bad', '/api/v1/internal-user/password-remind', { method: 'POST', body: 'email=x' })).status).toBe(415);
  });
});

describe('password reset', () => {
  it('sets the new password, uses the code up and ends every session', async () => {
    const { username, orgId, userId } = await createOrg('pwr-ok');
    const tokens = await signIn('pwr-ok', username);
    await remind('pwr-ok', username);
    const code = await resetCodeFrom(username);

    const res = await reset('pwr-ok', { code, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    await expect(signIn('pwr-ok', username, NEW_PASSWORD)).resolves.toMatchObject({ auth_type_id: 1 });
    await expect(signIn('pwr-ok', username, PASSWORD)).rejects.toThrow(/401/);

    // The old session is gone: its access token and refresh token both fail.
    expect((await call('pwr-ok', '/api/v1/internal-user/me', { token: tokens.access_token })).status).toBe(401);
    const refreshed = await call('pwr-ok', '/api/v1/internal-auth/token-refresh', { method: 'POST', headers: { 'x-refresh': tokens.refresh_token } });
    expect(refreshed.status).toBe(401);

    // Single use.
    const again = await reset('pwr-ok', { code, password: 'Other-789' });
    expect(again.status).toBe(400);
    expect(await body(again)).toMatchObject({ error: { code: 'link_invalid', message: MESSAGES.resetLinkInvalid } });

    const log = await activityOf(orgId, 'password');
    expect(log).toEqual([expect.objectContaining({ entity_id: userId, field: 'password', previous_value: null, new_value: '[changed]' })]);
    const stored = await env.DB.prepare('SELECT password_hash FROM users WHERE id = ?').bind(userId).first<{ password_hash: string }>();
    expect(JSON.stringify(log)).not.toContain(stored!.password_hash);
  });

  it('voids older reset links once one is used', async () => {
    const { username } = await createOrg('pwr-older');
    await remind('pwr-older', username);
    const first = await resetCodeFrom(username);
    await remind('pwr-older', username);
    const second = await resetCodeFrom(username);
    expect(first).not.toBe(second);
    expect((await reset('pwr-older', { code: second, password: NEW_PASSWORD })).status).toBe(200);
    expect((await reset('pwr-older', { code: first, password: 'Other-789' })).status).toBe(400);
  });

  it('refuses an expired code', async () => {
    const { username, orgId } = await createOrg('pwr-expired');
    await remind('pwr-expired', username);
    const code = await resetCodeFrom(username);
    await env.DB.prepare('UPDATE one_time_codes SET expires_at = ? WHERE org_id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), orgId)
      .run();
    const res = await reset('pwr-expired', { code, password: NEW_PASSWORD });
    expect(res.status).toBe(400);
    expect(await body(res)).toMatchObject({ error: { code: 'link_invalid' } });
    await expect(signIn('pwr-expired', username)).resolves.toBeTruthy();
  });

  it("refuses another organisation's code, a garbage code and a code of another purpose", async () => {
    const a = await createOrg('pwr-codea');
    await createOrg('pwr-codeb');
    await remind('pwr-codea', a.username);
    const code = await resetCodeFrom(a.username);
    for (const attempt of [
      reset('pwr-codeb', { code, password: NEW_PASSWORD }),
      reset('pwr-codea', { code: 'garbage', password: NEW_PASSWORD }),
      reset('pwr-codea', { code: `${code}x`, password: NEW_PASSWORD }),
    ]) {
      const res = await attempt;
      expect(res.status).toBe(400);
      expect(await body(res)).toMatchObject({ error: { code: 'link_invalid', message: MESSAGES.resetLinkInvalid } });
    }
    await env.DB.prepare("UPDATE one_time_codes SET purpose = 'sign_complete' WHERE org_id = ?").bind(a.orgId).run();
    expect((await reset('pwr-codea', { code, password: NEW_PASSWORD })).status).toBe(400);
    await expect(signIn('pwr-codea', a.username)).resolves.toBeTruthy();
  });

  it('reports each broken password rule, and keeps the code usable', async () => {
    const { username } = await createOrg('pwr-weak');
    await remind('pwr-weak', username);
    const code = await resetCodeFrom(username);
    const cases: [string, string[]][] = [
      ['Ab1!', [MESSAGES.passwordMinLength]],
      ['abcdef1!', [MESSAGES.passwordUppercase]],
      ['ABCDEF1!', [MESSAGES.passwordLowercase]],
      ['Abcdefg!', [MESSAGES.passwordDigit]],
      ['Abcdef12', [MESSAGES.passwordSpecial]],
      ['abc', [MESSAGES.passwordMinLength, MESSAGES.passwordUppercase, MESSAGES.passwordDigit, MESSAGES.passwordSpecial]],
    ];
    for (const [password, messages] of cases) {
      const res = await reset('pwr-weak', { code, password });
      expect(res.status).toBe(422);
      expect((await body(res)).error.fields.password).toEqual(messages);
    }
    expect((await reset('pwr-weak', { code })).status).toBe(422);
    expect((await reset('pwr-weak', { password: NEW_PASSWORD })).status).toBe(422);
    expect((await reset('pwr-weak', { code, password: NEW_PASSWORD })).status).toBe(200);
  });
});
