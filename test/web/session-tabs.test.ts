import { describe, expect, it, vi } from 'vitest';
import { memoryStorage, readSession } from '../../web/src/lib/storage';
import { json, makeServices, mockFetch, signIn, tokenBody } from './helpers';

const TAGS = { items: [], meta: { total: 0, page: 1, page_size: 10, total_pages: 0 } };
const unauthorized = () => json(401, { error: { code: 'unauthorized', message: 'Authentication required' } });

describe('two tabs sharing one stored session', () => {
  it('a tab whose token was refreshed by the other adopts the stored pair instead of spending its rotated refresh token', async () => {
    const storage = memoryStorage();
    const spent: string[] = [];
    const { fn, calls } = mockFetch((call) => {
      if (call.url.endsWith('/token-refresh')) {
        const token = call.headers['x-refresh'];
        if (spent.includes(token)) return unauthorized(); // the server revokes on reuse
        spent.push(token);
        return json(200, tokenBody('access-2', 'refresh-2'));
      }
      return call.headers.authorization === 'Bearer access-2' ? json(200, TAGS) : unauthorized();
    });
    const tab1 = makeServices(fn, { storage });
    const tab2 = makeServices(fn, { storage });
    signIn(tab1, { access: 'access-1', refresh: 'refresh-1' });
    tab2.session.adoptStoredSession();

    await expect(tab1.client.get('/tag')).resolves.toEqual(TAGS); // tab 1 refreshes: refresh-1 is spent
    await expect(tab2.client.get('/tag')).resolves.toEqual(TAGS); // tab 2 still holds refresh-1 in memory
    expect(calls.filter((c) => c.url.endsWith('/token-refresh'))).toHaveLength(1);
    expect(tab2.session.tokens()).toMatchObject({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    expect(tab1.navigate).not.toHaveBeenCalled();
    expect(tab2.navigate).not.toHaveBeenCalled();
  });

  it('follows a sign-out in the other tab: clears its state, drops cached data and goes to /', () => {
    const storage = memoryStorage();
    const { fn } = mockFetch(() => json(200, {}));
    const onSessionCleared = vi.fn();
    const tab1 = makeServices(fn, { storage });
    const tab2 = makeServices(fn, { storage, onSessionCleared });
    signIn(tab1);
    tab2.session.adoptStoredSession();
    expect(tab2.session.accessToken()).toBe('access-1');

    tab1.session.clear();
    tab2.session.adoptStoredSession();
    expect(tab2.session.accessToken()).toBeNull();
    expect(onSessionCleared).toHaveBeenCalledOnce();
    expect(tab2.navigate).toHaveBeenCalledWith('/');
  });
});

describe('sign-out', () => {
  it('clears the session, drops cached data and goes to / at once, even while the server does not answer', async () => {
    const { fn, calls } = mockFetch(() => new Promise<Response>(() => undefined)); // never answers
    const onSessionCleared = vi.fn();
    const s = makeServices(fn, { onSessionCleared });
    signIn(s);
    void s.session.logout();
    await Promise.resolve();
    expect(readSession(s.storage).accessToken).toBeNull();
    expect(s.navigate).toHaveBeenCalledWith('/');
    expect(onSessionCleared).toHaveBeenCalledOnce();
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/internal-auth/logout']);
    expect(calls[0].headers.authorization).toBe('Bearer access-1'); // the ended session's own token
  });
});

describe('sign-in', () => {
  it('fails visibly and leaves no tokens when the user cannot be loaded after the password was accepted', async () => {
    const { fn } = mockFetch((call) =>
      call.url.endsWith('/token-create') ? json(200, tokenBody('access-1', 'refresh-1')) : json(503, { error: { code: 'internal_error', message: 'x' } }),
    );
    const s = makeServices(fn);
    await expect(s.session.signIn('a@b.test', 'Secret-1')).rejects.toThrow();
    expect(readSession(s.storage).accessToken).toBeNull();
    expect(s.navigate).not.toHaveBeenCalledWith('/');
  });
});
