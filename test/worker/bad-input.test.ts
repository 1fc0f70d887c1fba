import { beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, signIn } from './helpers';

let token: string;

beforeAll(async () => {
  const { username } = await createOrg('bad');
  token = (await signIn('bad', username)).access_token;
});

async function expectClientError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

describe('malformed input is a clear 4xx, never a 500', () => {
  it('malformed JSON', async () => {
    const res = await call('bad', '/api/v1/tag', { method: 'POST', token, body: '{"name": ', headers: { 'content-type': 'application/json' } });
    await expectClientError(res, 400, 'invalid_json');
    const login = await call('bad', '/api/v1/internal-auth/token-create', {
      method: 'POST',
      body: 'not json',
      headers: { 'content-type': 'application/json' },
    });
    await expectClientError(login, 400, 'invalid_json');
  });

  it('wrong types and unknown fields', async () => {
    for (const json of [{ name: 42 }, { name: ['a'] }, { name: { a: 1 } }, [], 'text', 7, { name: 'ok', extra: 1 }]) {
      const res = await call('bad', '/api/v1/tag', { method: 'POST', json, token });
      await expectClientError(res, 422, 'validation_failed');
    }
    const big = await call('bad', '/api/v1/tag', { method: 'POST', json: { name: 'x'.repeat(101) }, token });
    expect(await expectClientError(big, 422, 'validation_failed')).toMatchObject({ error: { fields: { name: ['At most 100 characters'] } } });
  });

  it('a body that is not declared as JSON, and changes nothing', async () => {
    const res = await call('bad', '/api/v1/tag', { method: 'POST', token, body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await expectClientError(res, 415, 'unsupported_media_type');
    await call('bad', '/api/v1/tag', { method: 'POST', json: { name: 'keep me' }, token });
    // Without a JSON type Hono would validate {} in place of the body: on a bulk delete that meant "delete all".
    const plain = await call('bad', '/api/v1/tag', { method: 'DELETE', token, body: JSON.stringify({ ids: [1] }), headers: { 'content-type': 'text/plain' } });
    await expectClientError(plain, 415, 'unsupported_media_type');
    await expectClientError(await call('bad', '/api/v1/tag', { method: 'DELETE', token }), 415, 'unsupported_media_type');
    const left = (await (await call('bad', '/api/v1/tag', { token })).json()) as { meta: { total: number } };
    expect(left.meta.total).toBe(1);
  });

  it('unknown sort keys, bad orders and out-of-range paging', async () => {
    const cases = [
      '?sort_by=password',
      '?sort_by=name&sort_order=sideways',
      '?page_size=0',
      '?page_size=101',
      '?page_size=abc',
      '?page=0',
      '?page=-1',
      '?page=1.5',
      '?page=1&page=2',
      '?ids=abc',
      '?ids=0',
      '?unknown=1',
      '?search=%00ab',
      '?search=ab%07cd',
    ];
    for (const query of cases) {
      const res = await call('bad', `/api/v1/tag${query}`, { token });
      await expectClientError(res, 422, 'validation_failed');
    }
  });

  it('control characters in contact search and address filters (they reach the full-text index)', async () => {
    for (const query of ['?search=%00ab', '?search=ab%00', '?address=%00ab', '?address=ab%00cd']) {
      await expectClientError(await call('bad', `/api/v1/contact${query}`, { token }), 422, 'validation_failed');
    }
    await expectClientError(await call('bad', '/api/v1/contact', { method: 'DELETE', json: { search: 'ab\u0000cd' }, token }), 422, 'validation_failed');
  });

  it('ids in the path that are not ids', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999', '%00']) {
      expect((await call('bad', `/api/v1/tag/${id}`, { token })).status).toBe(404);
      expect((await call('bad', `/api/v1/tag/${id}`, { method: 'PUT', json: { name: 'x' }, token })).status).toBe(404);
      expect((await call('bad', `/api/v1/tag/${id}`, { method: 'DELETE', token })).status).toBe(404);
    }
  });

  it('bad bulk-delete and reorder bodies', async () => {
    for (const json of [{ ids: [] }, { ids: ['a'] }, { ids: 'all' }, { search: 5 }]) {
      await expectClientError(await call('bad', '/api/v1/tag', { method: 'DELETE', json, token }), 422, 'validation_failed');
    }
    for (const json of [{}, { ids: [] }, { ids: [1, 1] }, { ids: [-3] }]) {
      await expectClientError(await call('bad', '/api/v1/tag/priorities', { method: 'POST', json, token }), 422, 'validation_failed');
    }
  });

  it('unknown API routes are a JSON 404', async () => {
    await expectClientError(await call('bad', '/api/v1/nothing-here', { token }), 404, 'not_found');
    await expectClientError(await call('bad', '/api/v2/tag', { token }), 404, 'not_found');
  });

  it('a signed-in route without a token is a 401 in the envelope', async () => {
    await expectClientError(await call('bad', '/api/v1/tag'), 401, 'unauthorized');
    await expectClientError(await call('bad', '/api/v1/tag', { headers: { authorization: 'Bearer' } }), 401, 'unauthorized');
    await expectClientError(await call('bad', '/api/v1/tag', { headers: { authorization: 'Basic abc' } }), 401, 'unauthorized');
  });

  it('every response carries x-version, errors included', async () => {
    expect((await call('bad', '/api/v1/tag')).headers.get('x-version')).toBe('0.1.0');
    expect((await call('bad', '/api/v1/nothing')).headers.get('x-version')).toBe('0.1.0');
    expect((await call('nobody', '/api/v1/init/guest')).headers.get('x-version')).toBe('0.1.0');
  });
});
