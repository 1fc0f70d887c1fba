// The console's runtime settings (spec 3): /init/guest hands them to the console, the operator changes them with
// CONSOLE_SETTINGS (no rebuild), an invalid key keeps its default, and an API on another host is allowed by the
// content security policy. /init/user brings the preloadables.
import { describe, expect, it } from 'vitest';
import { CONSOLE_SETTING_DEFAULTS } from '../../../src/shared/console-settings';
import { appFetch, call, createOrg, signIn } from '../helpers';

const get = (path: string, env: Record<string, string> = {}) =>
  appFetch(new Request(`http://cset.localhost:8787${path}`, { headers: { host: 'cset.localhost:8787' } }), { env: env as never });

const settingsOf = async (env: Record<string, string> = {}) => (await (await get('/api/v1/init/guest', env)).json<any>()).data.settings;

describe('console runtime settings', () => {
  it('are the product defaults when the operator set nothing', async () => {
    await createOrg('cset');
    const settings = await settingsOf();
    expect(settings).toMatchObject({
      'dialog.enabled': true,
      'multiapp.enabled': true,
      'log.url': '/api/v1/log',
      'api.baseUrl': '',
      'api.path': '/api/v1',
      updatesInterval: 120_000,
      staticPages: ['terms', 'privacy'],
      removingPageSize: 100,
      disabledRoutes: [],
    });
    expect(settings).toMatchObject(CONSOLE_SETTING_DEFAULTS);
  });

  it('take what CONSOLE_SETTINGS says, and keep the default of each key that is invalid or unknown', async () => {
    const CONSOLE_SETTINGS = JSON.stringify({
      updatesInterval: 60_000,
      removingPageSize: 250,
      disabledRoutes: ['activity_log'],
      staticPages: ['terms', 'imprint'],
      'dialog.enabled': false,
      // Invalid: below the 10 s floor, a path without a slash, a page name with a space, an unknown key.
      'api.path': 'api/v2',
      'log.url': 'javascript:alert(1)',
      bogus: true,
    });
    const settings = await settingsOf({ CONSOLE_SETTINGS });
    expect(settings).toMatchObject({
      updatesInterval: 60_000,
      removingPageSize: 250,
      disabledRoutes: ['activity_log'],
      staticPages: ['terms', 'imprint'],
      'dialog.enabled': false,
      'api.path': '/api/v1',
      'log.url': '/api/v1/log',
    });
    expect(settings).not.toHaveProperty('bogus');
    expect(await settingsOf({ CONSOLE_SETTINGS: JSON.stringify({ updatesInterval: 5, removingPageSize: 5000 }) })).toMatchObject({
      updatesInterval: 120_000,
      removingPageSize: 100,
    });
    // Not JSON at all: the defaults, not a broken console.
    expect(await settingsOf({ CONSOLE_SETTINGS: '{updatesInterval: 1' })).toMatchObject(CONSOLE_SETTING_DEFAULTS);
  });

  it('allow an API on another host in the content security policy only when configured', async () => {
    const own = (await get('/')).headers.get('content-security-policy')!;
    expect(own.match(/connect-src [^;]*/)?.[0]).toBe("connect-src 'self' ws://cset.localhost:8787");
    const CONSOLE_SETTINGS = JSON.stringify({ 'api.baseUrl': 'https://api.relay.example' });
    expect((await settingsOf({ CONSOLE_SETTINGS }))['api.baseUrl']).toBe('https://api.relay.example');
    const other = (await get('/', { CONSOLE_SETTINGS })).headers.get('content-security-policy')!;
    expect(other.match(/connect-src [^;]*/)?.[0]).toBe("connect-src 'self' ws://cset.localhost:8787 https://api.relay.example wss://api.relay.example");
  });
});

describe('/init/user preloadables', () => {
  it('brings the dictionaries and the organisation own integrations and fields in display order, and nothing of another', async () => {
    const { username } = await createOrg('cpre');
    await createOrg('cpre-other');
    const tokens = await signIn('cpre', username);
    const other = await signIn('cpre-other', 'owner@cpre-other.test');
    const api = (org: string, token: string, path: string, json: unknown) => call(org, `/api/v1${path}`, { method: 'POST', token, json });
    await api('cpre', tokens.access_token, '/field', { name: 'Level', alias: 'level', type: 'number' });
    await api('cpre', tokens.access_token, '/field', { name: 'Plan', alias: 'plan', type: 'select', options: [{ value: 'Gold' }] });
    await api('cpre-other', other.access_token, '/field', { name: 'Secret', alias: 'secret', type: 'text' });
    const created = await api('cpre', tokens.access_token, '/integration', {
      type: 'smtp',
      name: 'Main',
      details: { server: 'smtp.example.com', port: 587 },
      user: 'u',
      password: 'secret-pw-9',
    });
    expect(created.status).toBe(201);

    const res = await call('cpre', '/api/v1/init/user', { token: tokens.access_token });
    const { data } = await res.json<any>();
    expect(data.user.username).toBe(username);
    expect(data.preloadables).toMatchObject({
      integration_types: ['smtp', 'twilio'],
      address_types: ['email', 'phone'],
      field_types: ['number', 'text', 'select', 'multiselect', 'boolean'],
      template_types: ['html', 'text', 'email'],
    });
    expect(data.preloadables.fields.map((f: { alias: string }) => f.alias)).toEqual(['level', 'plan']);
    expect(data.preloadables.fields[1].options.map((o: { value: string }) => o.value)).toEqual(['Gold']);
    expect(data.preloadables.integrations.map((i: { name: string }) => i.name)).toEqual(['Main']);
    expect(JSON.stringify(data.preloadables.integrations)).not.toContain('secret-pw-9');
    expect((await call('cpre', '/api/v1/init/user')).status).toBe(401);
  });
});
