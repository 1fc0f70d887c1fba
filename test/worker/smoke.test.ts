import { describe, expect, it } from 'vitest';
import { call, createOrg, signIn } from './helpers';

describe('smoke', () => {
  it('signs in and lists tags', async () => {
    const { username } = await createOrg('acme');
    const tokens = await signIn('acme', username);
    const res = await call('acme', '/api/v1/tag', { token: tokens.access_token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-version')).toBe('0.1.0');
    expect(await res.json()).toEqual({ items: [], meta: { total: 0, page: 1, page_size: 10, total_pages: 0 } });
  });
});
