import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/shared/messages';
import { call, createOrg } from '../helpers';
import { operator, platform } from './helpers';

describe('operator API', () => {
  it('needs the operator token: missing or wrong is 401, on every route', async () => {
    for (const [method, path] of [
      ['GET', '/settings'],
      ['PUT', '/settings'],
      ['GET', '/pre-registrations'],
      ['POST', '/pre-registrations/1/approve'],
      ['POST', '/pre-registrations/1/decline'],
    ]) {
      const none = await platform(`/api/v1/operator${path}`, { method, json: method === 'GET' ? undefined : {} });
      expect(none.status, `${method} ${path}`).toBe(401);
      const wrong = await platform(`/api/v1/operator${path}`, { method, json: method === 'GET' ? undefined : {}, token: 'test-operator-tokeN' });
      expect(wrong.status, `${method} ${path}`).toBe(401);
    }
    // A signed-in organisation user is not an operator either.
    await createOrg('op-co');
    const res = await call('op-co', '/api/v1/operator/settings');
    expect(res.status).toBe(401);
  });

  it('reads the defaults, stores any subset, and validates the values', async () => {
    const defaults = await operator('GET', '/settings');
    expect(defaults.status).toBe(200);
    expect(defaults.body.data).toEqual({ 'signup.enabled': true, 'signup.active': true, 'signup.applicationUrl': 'http://localhost:8787/signup' });

    const put = await operator('PUT', '/settings', { 'signup.active': false });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({ 'signup.enabled': true, 'signup.active': false, 'signup.applicationUrl': 'http://localhost:8787/signup' });
    await operator('PUT', '/settings', { 'signup.applicationUrl': 'https://apply.example.com/join' });
    expect((await operator('GET', '/settings')).body.data).toEqual({
      'signup.enabled': true,
      'signup.active': false,
      'signup.applicationUrl': 'https://apply.example.com/join',
    });

    const bad = await operator('PUT', '/settings', { 'signup.enabled': 'yes', 'signup.applicationUrl': 'javascript:alert(1)' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.fields['signup.applicationUrl']).toEqual([MESSAGES.invalidUrl]);
    expect(bad.body.error.fields['signup.enabled']).toBeDefined();
    expect((await operator('PUT', '/settings', { 'signup.unknown': true })).status).toBe(422);
    expect((await operator('PUT', '/settings', { 'signup.applicationUrl': 'not a url' })).status).toBe(422);
    expect(
      (await platform('/api/v1/operator/settings', { method: 'PUT', body: '{', headers: { 'content-type': 'application/json' }, token: 'test-operator-token' }))
        .status,
    ).toBe(400);
    // Nothing of a refused update was stored.
    expect((await operator('GET', '/settings')).body.data['signup.enabled']).toBe(true);

    // The guest init, on the bare host and on an organisation's host, carries the stored settings.
    const guest = await platform('/api/v1/init/guest');
    expect(guest.status).toBe(200);
    expect(guest.body.data.organization).toBeNull();
    expect(guest.body.data.settings).toMatchObject({ 'signup.active': false, 'signup.applicationUrl': 'https://apply.example.com/join' });
    await createOrg('guest-co');
    const orgGuest = await call('guest-co', '/api/v1/init/guest');
    expect(((await orgGuest.json()) as { data: { settings: Record<string, unknown> } }).data.settings['signup.active']).toBe(false);
    // Only the guest init runs without an organisation.
    expect((await platform('/api/v1/init/user')).status).toBe(404);
  });
});
