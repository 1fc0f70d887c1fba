import { beforeEach, describe, expect, it } from 'vitest';
import { call, createOrg, signIn } from '../helpers';

let token: string;
let org: string;
let counter = 0;

async function createTag(name: string) {
  const res = await call(org, '/api/v1/tag', { method: 'POST', json: { name }, token });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: number; name: string; priority: number } }).data;
}

async function list(query = '') {
  const res = await call(org, `/api/v1/tag${query}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as { items: { id: number; name: string; priority: number }[]; meta: Record<string, number> };
}

beforeEach(async () => {
  // Storage is shared by the tests of one file, so each test gets an organisation of its own.
  org = `acme${++counter}`;
  const { username } = await createOrg(org);
  token = (await signIn(org, username)).access_token;
});

describe('tag list contract', () => {
  it('pages with meta and the default page size of 10', async () => {
    for (let i = 1; i <= 12; i++) await createTag(`tag ${String(i).padStart(2, '0')}`);
    const first = await list();
    expect(first.items).toHaveLength(10);
    expect(first.meta).toEqual({ total: 12, page: 1, page_size: 10, total_pages: 2 });
    const second = await list('?page=2&page_size=10');
    expect(second.items.map((t) => t.name)).toEqual(['tag 11', 'tag 12']);
    const small = await list('?page=3&page_size=5');
    expect(small.meta).toEqual({ total: 12, page: 3, page_size: 5, total_pages: 3 });
    expect(small.items).toHaveLength(2);
  });

  it('sorts by an allowed key in either order, default priority ascending (creation order)', async () => {
    await createTag('banana');
    await createTag('apple');
    await createTag('cherry');
    expect((await list()).items.map((t) => t.name)).toEqual(['banana', 'apple', 'cherry']);
    expect((await list('?sort_by=name&sort_order=asc')).items.map((t) => t.name)).toEqual(['apple', 'banana', 'cherry']);
    expect((await list('?sort_by=name&sort_order=desc')).items.map((t) => t.name)).toEqual(['cherry', 'banana', 'apple']);
  });

  it('searches by name, taking LIKE wildcards literally', async () => {
    await createTag('Newsletter');
    await createTag('news_2026');
    await createTag('VIP');
    expect((await list('?search=news')).items.map((t) => t.name).sort()).toEqual(['Newsletter', 'news_2026']);
    expect((await list('?search=s_2')).items.map((t) => t.name)).toEqual(['news_2026']);
    expect((await list('?search=%25')).items).toEqual([]);
  });

  it('filters by ids given as repeated keys, with 100 as the page size then', async () => {
    const a = await createTag('a');
    await createTag('b');
    const c = await createTag('c');
    const res = await list(`?ids=${a.id}&ids=${c.id}`);
    expect(res.items.map((t) => t.name)).toEqual(['a', 'c']);
    expect(res.meta.page_size).toBe(100);
    expect((await list(`?ids=${a.id}`)).items.map((t) => t.name)).toEqual(['a']);
  });
});

describe('tag item routes', () => {
  it('creates, reads, replaces, patches and deletes', async () => {
    const tag = await createTag('  Leads  ');
    expect(tag.name).toBe('Leads');
    const read = await call(org, `/api/v1/tag/${tag.id}`, { token });
    expect(((await read.json()) as { data: { name: string } }).data.name).toBe('Leads');

    const put = await call(org, `/api/v1/tag/${tag.id}`, { method: 'PUT', json: { name: 'Customers' }, token });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { data: { name: string } }).data.name).toBe('Customers');

    const patch = await call(org, `/api/v1/tag/${tag.id}`, { method: 'PATCH', json: {}, token });
    expect(patch.status).toBe(200);
    expect(((await patch.json()) as { data: { name: string } }).data.name).toBe('Customers');

    const del = await call(org, `/api/v1/tag/${tag.id}`, { method: 'DELETE', token });
    expect(await del.json()).toEqual({ data: { deleted: 1 } });
    expect((await call(org, `/api/v1/tag/${tag.id}`, { token })).status).toBe(404);
    expect((await call(org, `/api/v1/tag/${tag.id}`, { method: 'DELETE', token })).status).toBe(404);
  });

  it('rejects a duplicate name on create and on update with the spec message', async () => {
    await createTag('VIP');
    const other = await createTag('Regular');
    const dup = await call(org, '/api/v1/tag', { method: 'POST', json: { name: 'VIP' }, token });
    expect(dup.status).toBe(422);
    expect(await dup.json()).toMatchObject({
      error: { code: 'validation_failed', fields: { name: ['Value already exists, use a different one.'] } },
    });
    const rename = await call(org, `/api/v1/tag/${other.id}`, { method: 'PUT', json: { name: 'VIP' }, token });
    expect(rename.status).toBe(422);
    expect((await list()).items.map((t) => t.name)).toEqual(['VIP', 'Regular']);
  });

  it('requires a name', async () => {
    for (const json of [{}, { name: '' }, { name: '   ' }, { name: null }]) {
      const res = await call(org, '/api/v1/tag', { method: 'POST', json, token });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        error: {
          code: 'validation_failed',
          message: 'Some fields are filled incorrectly. Fix the errors and try again.',
          fields: { name: ['This field is required'] },
        },
      });
    }
    expect((await list()).meta.total).toBe(0);
  });
});

describe('bulk delete and reorder', () => {
  it('deletes by ids, by the current search, and all', async () => {
    const a = await createTag('alpha');
    const b = await createTag('beta');
    await createTag('gamma one');
    await createTag('gamma two');
    await createTag('delta');
    let res = await call(org, '/api/v1/tag', { method: 'DELETE', json: { ids: [a.id, b.id] }, token });
    expect(await res.json()).toEqual({ data: { deleted: 2, more: false } });
    // A filter alone says nothing about deleting: {} or a search without "all" deletes nothing.
    for (const json of [{}, { search: 'gamma' }]) {
      res = await call(org, '/api/v1/tag', { method: 'DELETE', json, token });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields.ids[0]).toContain('"all": true');
    }
    expect((await list()).meta.total).toBe(3);
    res = await call(org, '/api/v1/tag', { method: 'DELETE', json: { all: true, search: 'gamma' }, token });
    expect(await res.json()).toEqual({ data: { deleted: 2, more: false } });
    expect((await list()).items.map((t) => t.name)).toEqual(['delta']);
    res = await call(org, '/api/v1/tag', { method: 'DELETE', json: { all: true }, token });
    expect(await res.json()).toEqual({ data: { deleted: 1, more: false } });
    expect((await list()).meta.total).toBe(0);
  });

  it('deletes "all" a removing page at a time and says when more remain', async () => {
    for (let i = 0; i < 5; i++) await createTag(`paged ${i}`);
    const page = async () =>
      (await (await call(org, '/api/v1/tag', { method: 'DELETE', json: { all: true, page_size: 2 }, token })).json()) as {
        data: { deleted: number; more: boolean };
      };
    expect(await page()).toEqual({ data: { deleted: 2, more: true } });
    expect((await list()).meta.total).toBe(3);
    expect(await page()).toEqual({ data: { deleted: 2, more: true } });
    expect(await page()).toEqual({ data: { deleted: 1, more: false } });
    expect((await list()).meta.total).toBe(0);
    for (const json of [{ all: false }, { all: true, ids: [1] }, { all: true, page_size: 0 }, { all: true, page_size: 1001 }]) {
      expect((await call(org, '/api/v1/tag', { method: 'DELETE', json, token })).status).toBe(422);
    }
  });

  it('refuses paging or sorting in a bulk delete and deletes nothing', async () => {
    await createTag('keep');
    const res = await call(org, '/api/v1/tag', { method: 'DELETE', json: { page: 1, sort_by: 'name' }, token });
    expect(res.status).toBe(422);
    expect((await list()).meta.total).toBe(1);
  });

  it('reorders by handing the moved rows their existing priority slots in the new order', async () => {
    const a = await createTag('a');
    const b = await createTag('b');
    await createTag('c');
    const d = await createTag('d');
    const res = await call(org, '/api/v1/tag/priorities', { method: 'POST', json: { ids: [d.id, b.id, a.id] }, token });
    expect(await res.json()).toEqual({ data: { updated: 3 } });
    // a, b, d held slots 1, 2, 4; c keeps slot 3.
    expect((await list()).items.map((t) => t.name)).toEqual(['d', 'b', 'c', 'a']);
    const next = await createTag('e');
    expect(next.priority).toBe(5);
  });

  it('refuses a reorder naming an unknown id and changes nothing', async () => {
    const a = await createTag('a');
    const b = await createTag('b');
    const res = await call(org, '/api/v1/tag/priorities', { method: 'POST', json: { ids: [b.id, 999_999] }, token });
    expect(res.status).toBe(404);
    expect((await list()).items.map((t) => t.id)).toEqual([a.id, b.id]);
  });
});
