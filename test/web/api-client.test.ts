import { describe, expect, it } from 'vitest';
import { ApiError } from '../../web/src/lib/api-error';
import { fieldErrorsAtom, setFieldErrors } from '../../web/src/lib/field-errors';
import { buildQueryString } from '../../web/src/lib/query-string';
import { currentUserAtom, sessionAtom } from '../../web/src/lib/session-state';
import { readSession, STORAGE_KEYS } from '../../web/src/lib/storage';
import { json, makeServices, mockFetch, signIn, tokenBody } from './helpers';

const TAGS = { items: [], meta: { total: 0, page: 1, page_size: 10, total_pages: 0 } };

describe('request headers', () => {
  it('sends X-DEVICE, X-APP, X-LANG and the bearer on user calls', async () => {
    const { fn, calls } = mockFetch(() => json(200, TAGS));
    const s = makeServices(fn);
    signIn(s, { access: 'tok-A' });
    await s.client.get('/tag');

    const h = calls[0].headers;
    expect(calls[0].url).toBe('/api/v1/tag');
    expect(h['x-app']).toBe('relay-console/9.9.9');
    expect(h['x-lang']).toBe('de');
    expect(h['x-device']).toMatch(/^relay-console:[0-9a-f]{6,}$/);
    expect(h.authorization).toBe('Bearer tok-A');
    // No JSON body on a plain user GET: no content type.
    expect(h['content-type']).toBeUndefined();
  });

  it('keeps the same device id across calls and stores it as deviceId', async () => {
    const { fn, calls } = mockFetch(() => json(200, TAGS));
    const s = makeServices(fn);
    await s.client.get('/tag');
    await s.client.get('/tag', { page: 2 });
    expect(calls[0].headers['x-device']).toBe(calls[1].headers['x-device']);
    expect(calls[0].headers['x-device']).toBe(`relay-console:${s.storage.getItem(STORAGE_KEYS.deviceId)}`);
  });

  it('sends JSON content type on guest calls and calls with a body, and no bearer on guest calls', async () => {
    const { fn, calls } = mockFetch(() => json(200, { data: {} }));
    const s = makeServices(fn);
    signIn(s, { access: 'tok-A' });
    await s.client.get('/init/guest', undefined, { guest: true });
    await s.client.post('/tag', { name: 'x' });

    expect(calls[0].headers['content-type']).toBe('application/json');
    expect(calls[0].headers.authorization).toBeUndefined();
    expect(calls[1].headers['content-type']).toBe('application/json');
    expect(calls[1].headers.authorization).toBe('Bearer tok-A');
    expect(calls[1].body).toEqual({ name: 'x' });
  });

  it('uses the header and prefix of the stored auth type from init/guest', async () => {
    const { fn, calls } = mockFetch(() => json(200, TAGS));
    const s = makeServices(fn);
    s.session.setAuthMethods([{ id: 7, name: 'custom', details: { header: 'X-Auth', prefix: 'Token' } }]);
    signIn(s, { access: 'tok-B', authTypeId: 7 });
    await s.client.get('/tag');
    expect(calls[0].headers['x-auth']).toBe('Token tok-B');
    expect(calls[0].headers.authorization).toBeUndefined();
  });
});

describe('query strings', () => {
  it('repeats keys for arrays and drops null, undefined, empty strings and empty arrays', () => {
    expect(buildQueryString({ ids: [1, 2], page: 1, search: '', sort_by: undefined, x: null, tags: [] })).toBe('?ids=1&ids=2&page=1');
    expect(buildQueryString({})).toBe('');
  });

  it('sends list parameters on the URL', async () => {
    const { fn, calls } = mockFetch(() => json(200, TAGS));
    const s = makeServices(fn);
    await s.client.get('/tag', { page: 1, page_size: 25, sort_by: 'name', sort_order: 'desc', search: 'vip', ids: [3, 4] });
    expect(calls[0].url).toBe('/api/v1/tag?page=1&page_size=25&sort_by=name&sort_order=desc&search=vip&ids=3&ids=4');
  });
});

describe('one request per URL', () => {
  it('shares one call between identical concurrent requests', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { fn, calls } = mockFetch(async () => {
      await gate;
      return json(200, TAGS);
    });
    const s = makeServices(fn);
    const a = s.client.get('/tag', { page: 1 });
    const b = s.client.get('/tag', { page: 1 });
    const c = s.client.get('/tag', { page: 2 });
    release();
    const [ra, rb] = await Promise.all([a, b, c]);
    expect(calls.map((x) => x.url)).toEqual(['/api/v1/tag?page=1', '/api/v1/tag?page=2']);
    expect(ra).toBe(rb);
  });

  it('runs a second call to the same URL with a different body only after the first finished', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { fn, calls } = mockFetch(async (call) => {
      order.push(`start ${(call.body as { name: string }).name}`);
      if ((call.body as { name: string }).name === 'a') await gate;
      order.push(`end ${(call.body as { name: string }).name}`);
      return json(201, { data: call.body });
    });
    const s = makeServices(fn);
    const a = s.client.post('/tag', { name: 'a' });
    const b = s.client.post('/tag', { name: 'b' });
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toHaveLength(1);
    release();
    await Promise.all([a, b]);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('does not hand a GET made after a write the answer of a GET sent before it', async () => {
    // The social accounts list was fetched on arrival, the link was confirmed while that fetch was still on its
    // way, and the refetch after the link got the old answer ("not linked") through the shared call.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let linked = false;
    const { fn, calls } = mockFetch(async (call, index) => {
      if (call.method === 'POST') {
        linked = true;
        return json(200, { data: {} });
      }
      const answer = { data: { linked } }; // read when the server handles the call
      if (index === 0) await gate;
      return json(200, answer);
    });
    const s = makeServices(fn);
    const before = s.client.get<{ data: { linked: boolean } }>('/social');
    await s.client.post('/social/oidc/link', { state: 'x' });
    const after = s.client.get<{ data: { linked: boolean } }>('/social');
    await new Promise((r) => setTimeout(r, 20));
    // Still one call per URL at a time: the second GET waits for the first.
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(1);
    release();
    expect((await before).data.linked).toBe(false);
    expect((await after).data.linked).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/v1/social', 'POST /api/v1/social/oidc/link', 'GET /api/v1/social']);
  });

  it('makes a new call once the previous identical one has finished', async () => {
    const { fn, calls } = mockFetch(() => json(200, TAGS));
    const s = makeServices(fn);
    await s.client.get('/tag');
    await s.client.get('/tag');
    expect(calls).toHaveLength(2);
  });
});

describe('401 handling', () => {
  it('refreshes with x-refresh, stores the rotated pair and retries once with the new bearer', async () => {
    const { fn, calls } = mockFetch((call) => {
      if (call.url.endsWith('/internal-auth/token-refresh')) return json(200, tokenBody('access-2', 'refresh-2'));
      return call.headers.authorization === 'Bearer access-2'
        ? json(200, TAGS)
        : json(401, { error: { code: 'unauthorized', message: 'Authentication required' } });
    });
    const s = makeServices(fn);
    signIn(s, { access: 'access-1', refresh: 'refresh-1', authTypeId: 1 });

    await expect(s.client.get('/tag')).resolves.toEqual(TAGS);
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/v1/tag', 'POST /api/v1/internal-auth/token-refresh', 'GET /api/v1/tag']);
    const refresh = calls[1].headers;
    expect(refresh['x-refresh']).toBe('refresh-1');
    expect(refresh.authorization).toBeUndefined();
    expect(refresh['x-device']).toMatch(/^relay-console:/);
    expect(calls[2].headers.authorization).toBe('Bearer access-2');
    expect(readSession(s.storage)).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2', authTypeId: 1 });
    expect(s.navigate).not.toHaveBeenCalled();
  });

  it('without a stored auth type refreshes with Authorization: Bearer <refresh> plus X-Access-Token', async () => {
    const { fn, calls } = mockFetch((call) => {
      if (call.url.endsWith('/token-refresh')) return json(200, tokenBody('access-2', 'refresh-2'));
      return call.headers.authorization === 'Bearer access-2' ? json(200, TAGS) : json(401, { error: { code: 'unauthorized', message: 'x' } });
    });
    const s = makeServices(fn);
    signIn(s, { access: 'access-1', refresh: 'refresh-1', authTypeId: null });
    expect(s.session.tokens().authTypeId).toBeNull();

    await s.client.get('/tag');
    const refresh = calls[1].headers;
    expect(refresh.authorization).toBe('Bearer refresh-1');
    expect(refresh['x-access-token']).toBe('access-1');
    expect(refresh['x-refresh']).toBeUndefined();
    expect(refresh['x-device']).toMatch(/^relay-console:/);
  });

  it('logs out when the retried call answers 401 again', async () => {
    const { fn, calls } = mockFetch((call) => {
      if (call.url.endsWith('/token-refresh')) return json(200, tokenBody('access-2', 'refresh-2'));
      if (call.url.endsWith('/logout')) return json(401, { error: { code: 'unauthorized', message: 'x' } });
      return json(401, { error: { code: 'unauthorized', message: 'Authentication required' } });
    });
    const s = makeServices(fn);
    signIn(s);

    const failure = await s.client.get('/tag').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    // Exactly one refresh and one retry: no loop.
    expect(calls.filter((c) => c.url === '/api/v1/tag')).toHaveLength(2);
    expect(calls.filter((c) => c.url.endsWith('/token-refresh'))).toHaveLength(1);
    expect(readSession(s.storage).accessToken).toBeNull();
    expect(s.store.get(sessionAtom).accessToken).toBeNull();
    expect(s.navigate).toHaveBeenCalledWith('/');
  });

  it('logs out without retrying when the refresh fails', async () => {
    const { fn, calls } = mockFetch((call) => {
      if (call.url.endsWith('/token-refresh')) return json(401, { error: { code: 'unauthorized', message: 'expired' } });
      return json(401, { error: { code: 'unauthorized', message: 'x' } });
    });
    const s = makeServices(fn);
    signIn(s);
    await expect(s.client.get('/tag')).rejects.toBeInstanceOf(ApiError);
    expect(calls.filter((c) => c.url === '/api/v1/tag')).toHaveLength(1);
    expect(readSession(s.storage)).toEqual({ accessToken: null, refreshToken: null, expiresAt: null, authTypeId: null });
    expect(s.navigate).toHaveBeenCalledWith('/');
  });

  it('shares one refresh between concurrent 401s', async () => {
    const { fn, calls } = mockFetch(async (call) => {
      if (call.url.endsWith('/token-refresh')) {
        await new Promise((r) => setTimeout(r, 30));
        return json(200, tokenBody('access-2', 'refresh-2'));
      }
      return call.headers.authorization === 'Bearer access-2' ? json(200, { data: call.url }) : json(401, { error: { code: 'unauthorized', message: 'x' } });
    });
    const s = makeServices(fn);
    signIn(s);
    await Promise.all([s.client.get('/tag'), s.client.get('/tag/1'), s.client.get('/tag/2')]);
    expect(calls.filter((c) => c.url.endsWith('/token-refresh'))).toHaveLength(1);
  });

  it('does not refresh on a 401 from logout, and logout always clears the session and goes to /', async () => {
    const { fn, calls } = mockFetch(() => json(401, { error: { code: 'unauthorized', message: 'x' } }));
    const s = makeServices(fn);
    signIn(s);
    await s.session.logout();
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/internal-auth/logout']);
    expect(calls[0].headers.authorization).toBe('Bearer access-1');
    expect(readSession(s.storage).accessToken).toBeNull();
    expect(s.navigate).toHaveBeenCalledWith('/');
  });

  it('does not refresh on a 401 from a guest call (wrong password)', async () => {
    const { fn, calls } = mockFetch(() =>
      json(401, { error: { code: 'invalid_credentials', message: 'Invalid email or password. Please check your credentials and try again.' } }),
    );
    const s = makeServices(fn);
    const failure = await s.session.signIn('a', 'b').catch((e: unknown) => e);
    expect((failure as ApiError).code).toBe('invalid_credentials');
    expect(calls).toHaveLength(1);
    expect(s.navigate).not.toHaveBeenCalled();
  });
});

describe('waiting while auth work runs', () => {
  it('holds other requests until the refresh has finished, then sends them with the new token', async () => {
    let finishRefresh!: () => void;
    const refreshDone = new Promise<void>((r) => (finishRefresh = r));
    const { fn, calls } = mockFetch(async (call) => {
      if (call.url.endsWith('/token-refresh')) {
        await refreshDone;
        return json(200, tokenBody('access-2', 'refresh-2'));
      }
      return json(200, TAGS);
    });
    const s = makeServices(fn);
    signIn(s);
    const refreshing = s.session.refresh();
    expect(s.session.isBusy()).toBe(true);
    const waiting = s.client.get('/tag');
    await new Promise((r) => setTimeout(r, 250));
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/internal-auth/token-refresh']);
    finishRefresh();
    await refreshing;
    await waiting;
    expect(calls[1].url).toBe('/api/v1/tag');
    expect(calls[1].headers.authorization).toBe('Bearer access-2');
  });
});

describe('session restore', () => {
  it('refreshes first when the stored token expires within 30 s, then loads the user', async () => {
    const user = {
      id: 5,
      name: 'Ann',
      username: 'ann',
      email: null,
      has_password: true,
      language: null,
      organization: { id: 2, name: 'Acme', domain: 'acme' },
    };
    const { fn, calls } = mockFetch((call) => {
      if (call.url.endsWith('/token-refresh')) return json(200, tokenBody('access-2', 'refresh-2'));
      if (call.url.endsWith('/internal-user/me')) return json(200, { data: user });
      return json(404, {});
    });
    const s = makeServices(fn);
    s.storage.setItem('accessToken', 'access-1');
    s.storage.setItem('refreshToken', 'refresh-1');
    s.storage.setItem('authTypeId', '1');
    s.storage.setItem('expiresAt', new Date(Date.now() + 10_000).toISOString());
    await s.session.restore();
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/internal-auth/token-refresh', '/api/v1/internal-user/me']);
    expect(calls[1].headers.authorization).toBe('Bearer access-2');
    expect(s.store.get(currentUserAtom)).toEqual(user);
  });

  it('loads the user without refreshing when the token is still valid', async () => {
    const { fn, calls } = mockFetch(() =>
      json(200, {
        data: { id: 1, name: 'A', username: 'a', email: null, has_password: true, language: null, organization: { id: 1, name: 'O', domain: 'o' } },
      }),
    );
    const s = makeServices(fn);
    s.storage.setItem('accessToken', 'access-1');
    s.storage.setItem('refreshToken', 'refresh-1');
    s.storage.setItem('expiresAt', new Date(Date.now() + 600_000).toISOString());
    await s.session.restore();
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/internal-user/me']);
  });

  it('clears the session when the startup refresh fails', async () => {
    const { fn, calls } = mockFetch(() => json(401, { error: { code: 'unauthorized', message: 'x' } }));
    const s = makeServices(fn);
    s.storage.setItem('accessToken', 'access-1');
    s.storage.setItem('refreshToken', 'refresh-1');
    s.storage.setItem('authTypeId', '1');
    s.storage.setItem('expiresAt', new Date(Date.now() - 1000).toISOString());
    await s.session.restore();
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/internal-auth/token-refresh']);
    expect(readSession(s.storage).accessToken).toBeNull();
    expect(s.store.get(currentUserAtom)).toBeNull();
  });

  it('does nothing without a stored token', async () => {
    const { fn, calls } = mockFetch(() => json(200, {}));
    const s = makeServices(fn);
    await s.session.restore();
    expect(calls).toHaveLength(0);
  });
});

describe('sign-in', () => {
  it('stores the tokens with an ISO expiry, loads the user and goes to /', async () => {
    const { fn, calls } = mockFetch((call) =>
      call.url.endsWith('/token-create')
        ? json(200, tokenBody('access-1', 'refresh-1', 1, 900))
        : json(200, {
            data: { id: 1, name: 'A', username: 'a', email: null, has_password: true, language: null, organization: { id: 1, name: 'O', domain: 'o' } },
          }),
    );
    const s = makeServices(fn);
    const before = Date.now();
    await s.session.signIn('ann', 'secret');
    expect(calls[0].body).toEqual({ username: 'ann', password: 'secret' });
    expect(calls[0].headers['content-type']).toBe('application/json');
    const stored = readSession(s.storage);
    expect(stored).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1', authTypeId: 1 });
    const expires = Date.parse(stored.expiresAt!);
    expect(expires).toBeGreaterThanOrEqual(before + 900_000);
    expect(expires).toBeLessThan(Date.now() + 901_000);
    expect(calls[1].headers.authorization).toBe('Bearer access-1');
    expect(s.navigate).toHaveBeenCalledWith('/');
  });
});

describe('422 field messages', () => {
  it('stores error.fields under method + URL, and clears all after a successful user call', async () => {
    const { fn } = mockFetch((call) =>
      call.method === 'POST'
        ? json(422, {
            error: {
              code: 'validation_failed',
              message: 'Some fields are filled incorrectly. Fix the errors and try again.',
              fields: { name: ['This field is required'] },
            },
          })
        : json(200, TAGS),
    );
    const s = makeServices(fn);
    signIn(s);
    const failure = await s.client.post('/tag', { name: '' }).catch((e: unknown) => e);
    expect((failure as ApiError).status).toBe(422);
    expect(s.store.get(fieldErrorsAtom)).toEqual({ 'POST /api/v1/tag': { name: ['This field is required'] } });
    expect(s.client.keyOf('POST', '/tag')).toBe('POST /api/v1/tag');

    await s.client.get('/tag');
    expect(s.store.get(fieldErrorsAtom)).toEqual({});
  });

  it('keeps messages stored while a successful call was on its way: only a call sent after them clears them', async () => {
    let answerList = () => undefined as void;
    const listHeld = new Promise<void>((resolve) => (answerList = resolve));
    const { fn } = mockFetch(async (call, index) => {
      if (call.method === 'POST') return json(422, { error: { code: 'validation_failed', message: 'x', fields: { name: ['This field is required'] } } });
      if (index === 0) await listHeld; // the first list call is slow
      return json(200, TAGS);
    });
    const s = makeServices(fn);
    signIn(s);
    const slowList = s.client.get('/tag');
    await new Promise((r) => setTimeout(r, 0));
    await s.client.post('/tag', { name: '' }).catch(() => undefined);
    setFieldErrors(s.store, 'browser check', { note: ['Too long'] });
    answerList();
    await slowList;
    expect(s.store.get(fieldErrorsAtom)).toEqual({ 'POST /api/v1/tag': { name: ['This field is required'] }, 'browser check': { note: ['Too long'] } });

    await s.client.get('/tag', { page: 2 });
    expect(s.store.get(fieldErrorsAtom)).toEqual({});
  });
});

describe('client error log', () => {
  it('reports API 5xx to POST /api/v1/log with X-ORG and JSON content type', async () => {
    const { fn, calls } = mockFetch((call) =>
      call.url === '/api/v1/log' ? json(201, { data: { id: 1 } }) : json(500, { error: { code: 'internal_error', message: 'boom' } }),
    );
    const s = makeServices(fn);
    signIn(s);
    await expect(s.client.get('/tag')).rejects.toBeInstanceOf(ApiError);
    await new Promise((r) => setTimeout(r, 0));
    const log = calls.find((c) => c.url === '/api/v1/log');
    expect(log).toBeDefined();
    expect(log!.method).toBe('POST');
    expect(log!.headers['x-org']).toBe('acme');
    expect(log!.headers['content-type']).toBe('application/json');
    expect(log!.body).toMatchObject({
      env: 'production',
      level: 'ERROR',
      args: { name: 'ApiError', url: 'http://acme.localhost:8787/tag?x=1', userAgent: 'test-agent', context: { status: 500 } },
    });
    expect(typeof (log!.body as { msg: string }).msg).toBe('string');
    expect((log!.body as { args: { timestamp: string } }).args.timestamp).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('does not report 401, 403, 422 or network errors', async () => {
    const statuses = [403, 422, 404];
    let i = 0;
    const { fn, calls } = mockFetch((call) => {
      if (call.url.endsWith('/token-refresh')) return json(401, {});
      if (call.url === '/api/v1/tag/net') throw new TypeError('Failed to fetch');
      return json(call.url === '/api/v1/tag/auth' ? 401 : statuses[i++], { error: { code: 'x', message: 'x' } });
    });
    const s = makeServices(fn);
    signIn(s);
    for (const path of ['/tag/a', '/tag/b', '/tag/c', '/tag/net']) await s.client.get(path).catch(() => undefined);
    signIn(s);
    await s.client.get('/tag/auth').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 0));
    expect(calls.some((c) => c.url === '/api/v1/log')).toBe(false);
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    const { fn } = mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const s = makeServices(fn);
    const failure = await s.client.get('/tag').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(0);
    expect((failure as ApiError).code).toBe('network_error');
  });
});

describe('version check on responses', () => {
  it('stores the first x-version without reloading, and reloads with cbstr when the server is newer', async () => {
    let version = '1.0.0';
    const { fn } = mockFetch(() => json(200, TAGS, { 'x-version': version }));
    const s = makeServices(fn);
    await s.client.get('/tag');
    expect(s.storage.getItem('version')).toBe('1.0.0');
    expect(s.reload).not.toHaveBeenCalled();

    await s.client.get('/tag', { page: 2 });
    expect(s.reload).not.toHaveBeenCalled();

    version = '1.2.0';
    await s.client.get('/tag', { page: 3 });
    expect(s.storage.getItem('version')).toBe('1.2.0');
    expect(s.reload).toHaveBeenCalledTimes(1);
    const url = new URL(s.reload.mock.calls[0][0] as string);
    expect(url.pathname).toBe('/tag');
    expect(url.searchParams.get('x')).toBe('1');
    expect(url.searchParams.get('cbstr')).toMatch(/^\d+$/);
  });
});
