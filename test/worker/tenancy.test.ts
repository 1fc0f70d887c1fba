import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { orgLabelFromHost } from '../../src/middleware/tenant';
import { call, createOrg, signIn } from './helpers';

describe('organisation from the host', () => {
  it.each([
    ['acme.localhost:8787', 'acme'],
    ['acme.localhost', 'acme'],
    ['acme.example.com', 'acme'],
    ['ACME.Example.com:443', 'acme'],
    ['a.b.example.com', 'a'],
    ['localhost:8787', null],
    ['example.com', null],
    ['127.0.0.1:8787', null],
    ['[::1]:8787', null],
    ['', null],
  ])('%s -> %s', (host, label) => {
    expect(orgLabelFromHost(host)).toBe(label);
  });

  it('answers an unknown organisation with a 404 error on the API', async () => {
    const res = await call('nobody', '/api/v1/init/guest');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'org_not_found', message: 'Organisation not found' } });
  });

  it('answers an unknown organisation with a 404 page in the browser', async () => {
    const res = await call('nobody', '/tag', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Organisation not found');
  });

  it('takes the organisation from X-ORG when the host names none, and refuses a mismatch', async () => {
    await createOrg('xorg');
    const viaHeader = await exportsFetch('http://localhost:8787/api/v1/init/guest', { 'x-org': 'xorg' });
    expect(viaHeader.status).toBe(200);
    expect(((await viaHeader.json()) as { data: { organization: { domain: string } } }).data.organization.domain).toBe('xorg');
    // The bare platform host: only the guest init answers (without an organisation); the rest needs one.
    const none = await exportsFetch('http://localhost:8787/api/v1/init/guest', {});
    expect(none.status).toBe(200);
    expect(((await none.json()) as { data: { organization: unknown } }).data.organization).toBeNull();
    expect((await exportsFetch('http://localhost:8787/api/v1/internal-auth/methods', {})).status).toBe(404);
    const mismatch = await call('xorg', '/api/v1/init/guest', { headers: { 'x-org': 'other' } });
    expect(mismatch.status).toBe(400);
  });
});

async function exportsFetch(url: string, headers: Record<string, string>) {
  const { exports } = await import('cloudflare:workers');
  return exports.default.fetch(new Request(url, { headers }));
}

describe('organisation A cannot reach organisation B tags', () => {
  let tokenA: string;
  let tokenB: string;
  let bTagIds: number[];

  beforeAll(async () => {
    const a = await createOrg('alpha');
    const b = await createOrg('beta');
    tokenA = (await signIn('alpha', a.username)).access_token;
    tokenB = (await signIn('beta', b.username)).access_token;
    bTagIds = [];
    for (const name of ['b-one', 'b-two']) {
      const res = await call('beta', '/api/v1/tag', { method: 'POST', json: { name }, token: tokenB });
      bTagIds.push(((await res.json()) as { data: { id: number } }).data.id);
    }
    await call('alpha', '/api/v1/tag', { method: 'POST', json: { name: 'a-one' }, token: tokenA });
  });

  async function betaTags() {
    const rows = await env.DB.prepare(
      "SELECT t.name, t.priority FROM tags t JOIN organizations o ON o.id = t.org_id WHERE o.domain = 'beta' ORDER BY t.id",
    ).all<{ name: string; priority: number }>();
    return rows.results;
  }

  it('lists only its own tags, even when asking for B ids', async () => {
    const all = (await (await call('alpha', '/api/v1/tag', { token: tokenA })).json()) as { items: { name: string }[] };
    expect(all.items.map((t) => t.name)).toEqual(['a-one']);
    const byIds = await call('alpha', `/api/v1/tag?ids=${bTagIds[0]}&ids=${bTagIds[1]}`, { token: tokenA });
    expect(await byIds.json()).toMatchObject({ items: [], meta: { total: 0 } });
  });

  it('gets 404 reading, updating and deleting B tags by id', async () => {
    const before = await betaTags();
    for (const id of bTagIds) {
      expect((await call('alpha', `/api/v1/tag/${id}`, { token: tokenA })).status).toBe(404);
      expect((await call('alpha', `/api/v1/tag/${id}`, { method: 'PUT', json: { name: 'stolen' }, token: tokenA })).status).toBe(404);
      expect((await call('alpha', `/api/v1/tag/${id}`, { method: 'PATCH', json: { name: 'stolen' }, token: tokenA })).status).toBe(404);
      expect((await call('alpha', `/api/v1/tag/${id}`, { method: 'DELETE', token: tokenA })).status).toBe(404);
    }
    expect(await betaTags()).toEqual(before);
  });

  it('bulk-deletes and reorders nothing of B', async () => {
    const before = await betaTags();
    const bulk = await call('alpha', '/api/v1/tag', { method: 'DELETE', json: { ids: bTagIds }, token: tokenA });
    expect(await bulk.json()).toEqual({ data: { deleted: 0, more: false } });
    const reorder = await call('alpha', '/api/v1/tag/priorities', { method: 'POST', json: { ids: [...bTagIds].reverse() }, token: tokenA });
    expect(reorder.status).toBe(404);
    expect(await betaTags()).toEqual(before);
  });

  it('"delete all" in A leaves B whole', async () => {
    const before = await betaTags();
    const all = await call('alpha', '/api/v1/tag', { method: 'DELETE', json: { all: true }, token: tokenA });
    expect(await all.json()).toEqual({ data: { deleted: 1, more: false } });
    expect(await betaTags()).toEqual(before);
  });

  it('refuses A token on B host', async () => {
    const res = await call('beta', '/api/v1/tag', { token: tokenA });
    expect(res.status).toBe(401);
  });

  it('does not let a tag name clash across organisations', async () => {
    const res = await call('alpha', '/api/v1/tag', { method: 'POST', json: { name: 'b-one' }, token: tokenA });
    expect(res.status).toBe(201);
  });
});
