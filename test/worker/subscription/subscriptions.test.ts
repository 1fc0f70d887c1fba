import { beforeEach, describe, expect, it } from 'vitest';
import { api, create, expect422, list, newSession, type Session } from '../api-helpers';

let s: Session;
beforeEach(async () => {
  s = await newSession('sub');
});

describe('subscriptions', () => {
  it('requires a unique name, on create and on update', async () => {
    expect422(await api(s, 'POST', '/subscription', {}), { name: ['This field is required'] });
    expect422(await api(s, 'POST', '/subscription', { name: '   ' }), { name: ['This field is required'] });
    await create(s, 'subscription', { name: 'News' });
    const promo = await create(s, 'subscription', { name: 'Promotions' });
    expect422(await api(s, 'POST', '/subscription', { name: 'News' }), { name: ['Value already exists, use a different one.'] });
    expect422(await api(s, 'PUT', `/subscription/${promo.id}`, { name: 'News' }), { name: ['Value already exists, use a different one.'] });
    expect((await list(s, 'subscription')).items.map((x: any) => x.name)).toEqual(['News', 'Promotions']);
  });

  it('creates, reads, renames and deletes', async () => {
    const sub = await create(s, 'subscription', { name: '  Weekly digest ' });
    expect(sub).toMatchObject({ name: 'Weekly digest', priority: 1, created_at: expect.any(String), updated_at: expect.any(String) });
    expect((await api(s, 'GET', `/subscription/${sub.id}`)).body.data).toEqual(sub);
    const patched = await api(s, 'PATCH', `/subscription/${sub.id}`, { name: 'Digest' });
    expect(patched.body.data.name).toBe('Digest');
    expect((await api(s, 'DELETE', `/subscription/${sub.id}`)).body).toEqual({ data: { deleted: 1 } });
    expect((await api(s, 'GET', `/subscription/${sub.id}`)).status).toBe(404);
  });

  it('pages on the server, searches, and reorders by drag', async () => {
    const subs = [];
    for (let i = 1; i <= 12; i++) subs.push(await create(s, 'subscription', { name: `List ${String(i).padStart(2, '0')}` }));
    const first = await list(s, 'subscription');
    expect(first.items).toHaveLength(10);
    expect(first.meta).toEqual({ total: 12, page: 1, page_size: 10, total_pages: 2 });
    expect((await list(s, 'subscription', '?page=2')).items.map((x: any) => x.name)).toEqual(['List 11', 'List 12']);
    expect((await list(s, 'subscription', '?search=List%201')).meta.total).toBe(3);
    await api(s, 'POST', '/subscription/priorities', { ids: [subs[2].id, subs[0].id] });
    expect((await list(s, 'subscription', '?page_size=3')).items.map((x: any) => x.name)).toEqual(['List 03', 'List 02', 'List 01']);
    expect((await api(s, 'DELETE', '/subscription', { all: true, search: 'List 1' })).body).toEqual({ data: { deleted: 3, more: false } });
    expect((await list(s, 'subscription')).meta.total).toBe(9);
  });
});
