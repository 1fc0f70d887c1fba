import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/shared/messages';
import { addUser, call, createOrg, PASSWORD, signIn } from '../helpers';
import { activityOf, body, linkSocial, sessionFor } from './helpers';

const NEW_PASSWORD = 'Fresh-456';
const put = (org: string, path: string, token: string, json: unknown) => call(org, `/api/v1${path}`, { method: 'PUT', token, json });

describe('the language kept with the user', () => {
  it('is null until chosen, then answered on every load of the user (a new session included); bad input is a 422 that changes nothing', async () => {
    const { userId, username } = await createOrg('lang-ok');
    const first = await signIn('lang-ok', username);
    const me = async (token: string) => (await body(await call('lang-ok', '/api/v1/internal-user/me', { token }))).data;
    expect((await me(first.access_token)).language).toBeNull();
    const res = await put('lang-ok', `/internal-user/${userId}/language`, first.access_token, { language: 'de' });
    expect(res.status).toBe(200);
    expect((await body(res)).data).toMatchObject({ id: userId, language: 'de' });
    // Another browser: a new session reads it back.
    const second = await signIn('lang-ok', username);
    expect((await me(second.access_token)).language).toBe('de');
    for (const bad of [{ language: 'xx' }, { language: null }, {}, { language: 'de', extra: 1 }]) {
      const refused = await put('lang-ok', `/internal-user/${userId}/language`, first.access_token, bad);
      expect(refused.status).toBe(422);
    }
    expect((await me(first.access_token)).language).toBe('de');
  });

  it("is the user's own: another user's id is refused and changes nothing", async () => {
    const { orgId, username } = await createOrg('lang-own');
    const other = await addUser(orgId, 'other@lang-own.test');
    const { access_token } = await signIn('lang-own', username);
    const res = await put('lang-own', `/internal-user/${other}/language`, access_token, { language: 'fr' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await env.DB.prepare('SELECT language FROM users WHERE id = ?').bind(other).first('language')).toBeNull();
  });
});

describe('profile', () => {
  it('updates name and email (login lower-cased) and answers the current user, logged per field', async () => {
    const { orgId, userId, username } = await createOrg('prof-ok');
    const { access_token } = await signIn('prof-ok', username);
    const res = await put('prof-ok', `/internal-user/${userId}`, access_token, { name: 'New Name', email: 'New.Me@Prof.test' });
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({
      data: { id: userId, name: 'New Name', username: 'new.me@prof.test', email: 'New.Me@Prof.test', has_password: true, organization: { domain: 'prof-ok' } },
    });
    await expect(signIn('prof-ok', 'new.me@prof.test')).resolves.toBeTruthy();
    const fields = (await activityOf(orgId, 'user')).map((r) => [r.field, r.previous_value, r.new_value, r.user_id, r.entity_id]);
    expect(fields).toEqual(
      expect.arrayContaining([
        ['name', 'prof-ok owner', 'New Name', userId, userId],
        ['username', username, 'new.me@prof.test', userId, userId],
        ['email', username, 'New.Me@Prof.test', userId, userId],
      ]),
    );
  });

  it('sets a plain username in simple-sign mode', async () => {
    const { userId, username } = await createOrg('prof-user');
    const { access_token } = await signIn('prof-user', username);
    const res = await put('prof-user', `/internal-user/${userId}`, access_token, { name: 'N', username: 'Plain_Name' });
    expect(res.status).toBe(200);
    expect((await body(res)).data.username).toBe('plain_name');
  });

  it('refuses a login another user has with 422 on the field', async () => {
    const { orgId, userId, username } = await createOrg('prof-dup');
    await addUser(orgId, 'taken@prof.test');
    const { access_token } = await signIn('prof-dup', username);
    const byEmail = await put('prof-dup', `/internal-user/${userId}`, access_token, { name: 'N', email: 'TAKEN@prof.test' });
    expect(byEmail.status).toBe(422);
    expect(await body(byEmail)).toMatchObject({ error: { code: 'validation_failed', fields: { email: [MESSAGES.duplicate] } } });
    const byUsername = await put('prof-dup', `/internal-user/${userId}`, access_token, { name: 'N', username: 'taken@prof.test' });
    expect(await body(byUsername)).toMatchObject({ error: { fields: { username: [MESSAGES.duplicate] } } });
    // Keeping one's own login is not a duplicate.
    expect((await put('prof-dup', `/internal-user/${userId}`, access_token, { name: 'N', email: username })).status).toBe(200);
  });

  it('acts only on oneself: another user or organisation is a 404', async () => {
    const a = await createOrg('prof-tena');
    const b = await createOrg('prof-tenb');
    const colleague = await addUser(a.orgId, 'colleague@prof.test');
    const { access_token } = await signIn('prof-tena', a.username);
    for (const id of [colleague, b.userId, 'me', '0', '99999999']) {
      const res = await put('prof-tena', `/internal-user/${id}`, access_token, { name: 'Hijack', email: 'hijack@prof.test' });
      expect(res.status).toBe(404);
      expect(
        (
          await call('prof-tena', `/api/v1/internal-user/${id}/password`, {
            method: 'PUT',
            token: access_token,
            json: { current_password: PASSWORD, password: NEW_PASSWORD },
          })
        ).status,
      ).toBe(404);
      expect((await call('prof-tena', `/api/v1/internal-user/${id}`, { method: 'DELETE', token: access_token, json: { confirm: 'x' } })).status).toBe(404);
    }
    // Org B's token on org A's host is refused outright.
    const tokenB = await signIn('prof-tenb', b.username);
    expect((await put('prof-tena', `/internal-user/${b.userId}`, tokenB.access_token, { name: 'X', email: 'x@x.test' })).status).toBe(401);
    const names = await env.DB.prepare('SELECT name FROM users WHERE id IN (?, ?)').bind(colleague, b.userId).all<{ name: string }>();
    expect(names.results.map((r) => r.name)).not.toContain('Hijack');
  });

  it('validates the body: name required, email format, one login, unknown keys', async () => {
    const { userId, username } = await createOrg('prof-bad');
    const { access_token } = await signIn('prof-bad', username);
    const cases: [unknown, string][] = [
      [{ email: 'a@b.test' }, 'name'],
      [{ name: '  ', email: 'a@b.test' }, 'name'],
      [{ name: 'N', email: 'not-an-email' }, 'email'],
      [{ name: 'N' }, 'email'],
      [{ name: 'N', email: 'a@b.test', role: 'admin' }, '_'],
      // A username with an @ is an email address: it must be a valid one.
      [{ name: 'N', username: 'bad@@email' }, 'username'],
      [{ name: 'N', username: 'a@' }, 'username'],
    ];
    for (const [json, field] of cases) {
      const res = await put('prof-bad', `/internal-user/${userId}`, access_token, json);
      expect(res.status).toBe(422);
      expect(Object.keys((await body(res)).error.fields)).toContain(field);
    }
    expect((await put('prof-bad', `/internal-user/${userId}`, access_token, [1, 2])).status).toBe(422);
    // Nothing changed: the old login still signs in.
    await signIn('prof-bad', username);
  });

  it('requires a signed-in caller', async () => {
    const { userId } = await createOrg('prof-anon');
    expect((await call('prof-anon', `/api/v1/internal-user/${userId}`, { method: 'PUT', json: { name: 'N', email: 'a@b.test' } })).status).toBe(401);
  });
});

describe('password change', () => {
  it('changes the password with the right current one and ends the other sessions only', async () => {
    const { orgId, userId, username } = await createOrg('pwc-ok');
    const other = await signIn('pwc-ok', username);
    const current = await signIn('pwc-ok', username);
    const res = await put('pwc-ok', `/internal-user/${userId}/password`, current.access_token, { current_password: PASSWORD, password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect((await body(res)).data).toMatchObject({ id: userId, has_password: true });
    expect((await call('pwc-ok', '/api/v1/internal-user/me', { token: current.access_token })).status).toBe(200);
    expect((await call('pwc-ok', '/api/v1/internal-user/me', { token: other.access_token })).status).toBe(401);
    const refreshed = await call('pwc-ok', '/api/v1/internal-auth/token-refresh', { method: 'POST', headers: { 'x-refresh': other.refresh_token } });
    expect(refreshed.status).toBe(401);
    await expect(signIn('pwc-ok', username, NEW_PASSWORD)).resolves.toBeTruthy();
    expect(await activityOf(orgId, 'password')).toEqual([
      expect.objectContaining({ action: 'update', field: 'password', previous_value: null, new_value: '[changed]', user_id: userId }),
    ]);
  });

  it('refuses a wrong or missing current password, then too many wrong ones', async () => {
    const { userId, username } = await createOrg('pwc-wrong');
    const { access_token } = await signIn('pwc-wrong', username);
    const path = `/internal-user/${userId}/password`;
    const missing = await put('pwc-wrong', path, access_token, { password: NEW_PASSWORD });
    expect(missing.status).toBe(422);
    expect(await body(missing)).toMatchObject({ error: { fields: { current_password: [MESSAGES.required] } } });
    for (let i = 0; i < 5; i++) {
      const wrong = await put('pwc-wrong', path, access_token, { current_password: 'Wrong-123', password: NEW_PASSWORD });
      expect(wrong.status).toBe(422);
      expect(await body(wrong)).toMatchObject({
        error: { code: 'current_password_wrong', message: MESSAGES.currentPasswordWrong, fields: { current_password: [MESSAGES.currentPasswordWrong] } },
      });
    }
    const blocked = await put('pwc-wrong', path, access_token, { current_password: PASSWORD, password: NEW_PASSWORD });
    expect(blocked.status).toBe(429);
    await expect(signIn('pwc-wrong', username, PASSWORD)).resolves.toBeTruthy();
  });

  it('reports every broken rule of a weak new password', async () => {
    const { userId, username } = await createOrg('pwc-weak');
    const { access_token } = await signIn('pwc-weak', username);
    const res = await put('pwc-weak', `/internal-user/${userId}/password`, access_token, { current_password: PASSWORD, password: 'abc' });
    expect(res.status).toBe(422);
    expect((await body(res)).error.fields.password).toEqual([
      MESSAGES.passwordMinLength,
      MESSAGES.passwordUppercase,
      MESSAGES.passwordDigit,
      MESSAGES.passwordSpecial,
    ]);
  });

  it('lets a social-only user create password access without a current password', async () => {
    const { orgId } = await createOrg('pwc-social');
    const socialId = await addUser(orgId, 'social@pwc.test', null);
    await linkSocial(orgId, socialId);
    // Sign the social user in the way the social module does: open a session directly.
    const { access_token } = await sessionFor(orgId, socialId);
    const me = await call('pwc-social', '/api/v1/internal-user/me', { token: access_token });
    expect((await body(me)).data.has_password).toBe(false);
    const res = await put('pwc-social', `/internal-user/${socialId}/password`, access_token, { password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect((await body(res)).data.has_password).toBe(true);
    await expect(signIn('pwc-social', 'social@pwc.test', NEW_PASSWORD)).resolves.toBeTruthy();
    expect((await activityOf(orgId, 'password')).map((r) => r.action)).toEqual(['create']);
  });
});

describe('removing password access', () => {
  it('refuses to remove the last login method', async () => {
    const { userId, username } = await createOrg('pwd-last');
    const { access_token } = await signIn('pwd-last', username);
    const res = await call('pwd-last', `/api/v1/internal-user/${userId}/password`, { method: 'DELETE', token: access_token });
    expect(res.status).toBe(409);
    expect(await body(res)).toMatchObject({ error: { code: 'last_login_method', message: MESSAGES.lastLoginMethod } });
    await expect(signIn('pwd-last', username)).resolves.toBeTruthy();
  });

  it('removes it when a social account remains; a second removal is a 404', async () => {
    const { orgId, userId, username } = await createOrg('pwd-ok');
    await linkSocial(orgId, userId);
    const { access_token } = await signIn('pwd-ok', username);
    const res = await call('pwd-ok', `/api/v1/internal-user/${userId}/password`, { method: 'DELETE', token: access_token });
    expect(res.status).toBe(200);
    expect((await body(res)).data.has_password).toBe(false);
    await expect(signIn('pwd-ok', username)).rejects.toThrow(/401/);
    expect((await call('pwd-ok', `/api/v1/internal-user/${userId}/password`, { method: 'DELETE', token: access_token })).status).toBe(404);
    expect(await activityOf(orgId, 'password')).toEqual([expect.objectContaining({ action: 'delete', field: 'password' })]);
  });
});

describe('organisation', () => {
  it('shows and renames the current organisation; the domain never changes', async () => {
    const { orgId, username, userId } = await createOrg('orgx-ok');
    const { access_token } = await signIn('orgx-ok', username);
    const got = await call('orgx-ok', '/api/v1/organization', { token: access_token });
    const tracking = {
      track_opens: true,
      track_clicks: true,
      message_retention_days: null,
      effective_retention_days: 90,
      soft_bounce_limit: 3,
      soft_bounce_days: 30,
    };
    expect(await body(got)).toEqual({ data: { id: orgId, name: 'orgx-ok Inc', domain: 'orgx-ok', ...tracking } });
    const res = await put('orgx-ok', '/organization', access_token, { name: 'Renamed Ltd' });
    expect(res.status).toBe(200);
    expect(await body(res)).toEqual({ data: { id: orgId, name: 'Renamed Ltd', domain: 'orgx-ok', ...tracking } });
    expect((await put('orgx-ok', '/organization', access_token, { name: 'X', domain: 'evil' })).status).toBe(422);
    expect((await put('orgx-ok', '/organization', access_token, { name: '' })).status).toBe(422);
    expect((await put('orgx-ok', '/organization', access_token, 'x')).status).toBe(422);
    const notBoolean = await put('orgx-ok', '/organization', access_token, { name: 'X', track_opens: 'no' });
    expect(notBoolean.status).toBe(422);
    expect((await body(notBoolean)).error.fields).toEqual({ track_opens: ['Must be true or false'] });
    // The tracking defaults for new broadcasts: switched off one at a time; an omitted one stays as it was.
    const off = await put('orgx-ok', '/organization', access_token, { name: 'Renamed Ltd', track_clicks: false });
    expect((await body(off)).data).toMatchObject({ track_opens: true, track_clicks: false });
    const after = await call('orgx-ok', '/api/v1/organization', { token: access_token });
    expect((await body(after)).data).toEqual({
      id: orgId,
      name: 'Renamed Ltd',
      domain: 'orgx-ok',
      track_opens: true,
      track_clicks: false,
      message_retention_days: null,
      effective_retention_days: 90,
      soft_bounce_limit: 3,
      soft_bounce_days: 30,
    });
    expect(await activityOf(orgId, 'organization')).toEqual([
      expect.objectContaining({ user_id: userId, entity_id: orgId, field: 'name', previous_value: 'orgx-ok Inc', new_value: 'Renamed Ltd' }),
      expect.objectContaining({ user_id: userId, entity_id: orgId, field: 'track_clicks', previous_value: 'true', new_value: 'false' }),
    ]);
    expect((await call('orgx-ok', '/api/v1/organization')).status).toBe(401);
  });
});
