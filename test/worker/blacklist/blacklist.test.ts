import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { addressKey, blacklistedAmong, isBlacklisted } from '../../../src/modules/blacklist/lookup';
import { api, create, expect422, list, newSession, type Session } from '../api-helpers';

let s: Session;
beforeEach(async () => {
  s = await newSession('bl');
});

describe('blacklist routes', () => {
  it('marks the blacklisted addresses of contacts in the contact list and view', async () => {
    const ann = await create(s, 'contact', {
      name: 'Ann',
      addresses: [
        { type: 'email', value: 'ann@example.com' },
        { type: 'phone', value: '+15550001' },
      ],
    });
    await create(s, 'blacklist', { type: 'email', value: 'ANN@example.com' });
    const listed = (await list(s, 'contact')).items.find((c: { id: number }) => c.id === ann.id);
    const emailId = ann.addresses.find((a: { type: string }) => a.type === 'email').id;
    expect(listed.blacklisted_addresses).toEqual([emailId]);
    expect((await api(s, 'GET', `/contact/${ann.id}`)).body.data.blacklisted_addresses).toEqual([emailId]);
  });

  it('requires type and value, in the format of the type', async () => {
    expect422(await api(s, 'POST', '/blacklist', {}), { type: ['This field is required'], value: ['This field is required'] });
    expect422(await api(s, 'POST', '/blacklist', { type: 'fax', value: '+123' }), { type: ['Choose one of: email, phone'] });
    expect422(await api(s, 'POST', '/blacklist', { type: 'email', value: 'nope' }), {
      value: ['Invalid email address. Please enter a valid email'],
    });
    expect422(await api(s, 'POST', '/blacklist', { type: 'phone', value: '555 0100' }), {
      value: ["Invalid phone number. It must start with '+' and contain only digits"],
    });
    expect422(await api(s, 'POST', '/blacklist', { type: 'email', value: '  ' }), { value: ['This field is required'] });
    expect((await list(s, 'blacklist')).meta.total).toBe(0);
  });

  it('stores the normalised value with optional info, and refuses a duplicate', async () => {
    const entry = await create(s, 'blacklist', { type: 'email', value: ' Spam@Example.com ', info: 'complained' });
    // Added by a person: no reason and no message (the platform's own entries have them, src/modules/bounce).
    expect(entry).toEqual({
      id: expect.any(Number),
      type: 'email',
      value: 'spam@example.com',
      info: 'complained',
      reason: null,
      message_id: null,
      created_at: expect.any(String),
    });
    const short = await create(s, 'blacklist', { type: 'phone', value: '+12345' });
    expect(short.info).toBeNull();
    expect422(await api(s, 'POST', '/blacklist', { type: 'email', value: 'SPAM@example.com' }), {
      value: ['Value already exists, use a different one.'],
    });
    expect((await list(s, 'blacklist')).meta.total).toBe(2);
  });

  it('lists newest first, filters by type, searches value and info; reads and deletes; never edits', async () => {
    const a = await create(s, 'blacklist', { type: 'email', value: 'a@example.com', info: 'bounced' });
    const b = await create(s, 'blacklist', { type: 'phone', value: '+15550100' });
    const c = await create(s, 'blacklist', { type: 'email', value: 'c@example.org' });
    expect((await list(s, 'blacklist')).items.map((x: any) => x.id)).toEqual([c.id, b.id, a.id]);
    expect((await list(s, 'blacklist', '?type=phone')).items.map((x: any) => x.id)).toEqual([b.id]);
    expect((await list(s, 'blacklist', '?search=bounce')).items.map((x: any) => x.id)).toEqual([a.id]);
    expect((await list(s, 'blacklist', '?search=.org')).items.map((x: any) => x.id)).toEqual([c.id]);
    expect((await api(s, 'GET', '/blacklist?type=fax')).status).toBe(422);
    expect((await api(s, 'GET', `/blacklist/${a.id}`)).body.data).toEqual(a);
    expect((await api(s, 'PUT', `/blacklist/${a.id}`, { type: 'email', value: 'x@example.com' })).status).toBe(404);
    expect((await api(s, 'PATCH', `/blacklist/${a.id}`, { info: 'x' })).status).toBe(404);
    expect((await api(s, 'POST', '/blacklist/priorities', { ids: [a.id] })).status).toBe(404);
    expect((await api(s, 'GET', `/blacklist/${a.id}`)).body.data).toEqual(a);
    expect((await api(s, 'DELETE', `/blacklist/${a.id}`)).body).toEqual({ data: { deleted: 1 } });
    expect((await api(s, 'DELETE', '/blacklist', { all: true, type: 'email' })).body).toEqual({ data: { deleted: 1, more: false } });
    expect((await list(s, 'blacklist')).items.map((x: any) => x.id)).toEqual([b.id]);
  });
});

describe('blacklist lookups for the sending engine', () => {
  it('answers for one address and for a batch, in the normalised spelling, per organisation', async () => {
    await create(s, 'blacklist', { type: 'email', value: 'blocked@example.com' });
    await create(s, 'blacklist', { type: 'phone', value: '+15550100' });
    const other = await newSession('bl');
    await create(other, 'blacklist', { type: 'email', value: 'other@example.com' });
    const db = createDb(env.DB);

    expect(await isBlacklisted(db, s.orgId, 'email', ' BLOCKED@example.com')).toBe(true);
    expect(await isBlacklisted(db, s.orgId, 'phone', '+15550100')).toBe(true);
    expect(await isBlacklisted(db, s.orgId, 'email', 'ok@example.com')).toBe(false);
    // The same value under the other type is not blocked; another organisation's entry does not count.
    expect(await isBlacklisted(db, s.orgId, 'phone', 'blocked@example.com')).toBe(false);
    expect(await isBlacklisted(db, s.orgId, 'email', 'other@example.com')).toBe(false);
    expect(await isBlacklisted(db, other.orgId, 'email', 'other@example.com')).toBe(true);

    const many = [
      ...Array.from({ length: 1200 }, (_, i) => ({ type: 'email' as const, value: `user${i}@example.com` })),
      { type: 'email' as const, value: 'Blocked@Example.com' },
      { type: 'phone' as const, value: '+15550100' },
      { type: 'email' as const, value: 'other@example.com' },
    ];
    const found = await blacklistedAmong(db, s.orgId, many);
    expect([...found.keys()].sort()).toEqual([addressKey('email', 'blocked@example.com'), addressKey('phone', '+15550100')].sort());
    expect(found.has(addressKey('email', 'BLOCKED@example.com'))).toBe(true);
    expect((await blacklistedAmong(db, s.orgId, [])).size).toBe(0);
  });
});
