import { beforeEach, describe, expect, it } from 'vitest';
import { api, create, expect422, list, newSession, rows, type Session } from '../api-helpers';

let s: Session;
beforeEach(async () => {
  s = await newSession('con');
});

const REQUIRED = ['This field is required'];
const REQUIRED_LIST = ['At least one item must be selected'];
const DUPLICATE = ['Value already exists, use a different one.'];
const INVALID_EMAIL = ['Invalid email address. Please enter a valid email'];
const INVALID_PHONE = ["Invalid phone number. It must start with '+' and contain only digits"];

const email = (value: string) => ({ type: 'email', value });
const phone = (value: string) => ({ type: 'phone', value });

async function countContacts() {
  return (await rows<{ n: number }>('SELECT count(*) AS n FROM contacts WHERE org_id = ?', s.orgId))[0].n;
}

describe('contact validation', () => {
  it('requires a name and at least one address', async () => {
    expect422(await api(s, 'POST', '/contact', {}), { name: REQUIRED, addresses: REQUIRED_LIST });
    expect422(await api(s, 'POST', '/contact', { name: ' ', addresses: [] }), { name: REQUIRED, addresses: REQUIRED_LIST });
    expect(await countContacts()).toBe(0);
  });

  it('checks e-mail values', async () => {
    for (const value of ['not-an-email', 'a@b', '@example.com', 'a b@example.com']) {
      expect422(await api(s, 'POST', '/contact', { name: 'Ann', addresses: [email(value)] }), { 'addresses.0.value': INVALID_EMAIL });
    }
    expect422(await api(s, 'POST', '/contact', { name: 'Ann', addresses: [email('')] }), { 'addresses.0.value': REQUIRED });
    expect(await countContacts()).toBe(0);
  });

  it("checks phone values: '+' then digits only, short codes included", async () => {
    for (const value of ['12345678', '+1 555 0100', '+1-555-0100', '+', '+12', '+1234567890123456', '+12a45', '++12345']) {
      expect422(await api(s, 'POST', '/contact', { name: 'Bob', addresses: [phone(value)] }), { 'addresses.0.value': INVALID_PHONE });
    }
    const short = await create(s, 'contact', { name: 'Short', addresses: [phone('+123')] });
    expect(short.addresses).toEqual([{ id: expect.any(Number), type: 'phone', value: '+123' }]);
    const long = await create(s, 'contact', { name: 'Long', addresses: [phone('+441234567890123')] });
    expect(long.addresses[0].value).toBe('+441234567890123');
  });

  it('refuses an unknown address type', async () => {
    expect422(await api(s, 'POST', '/contact', { name: 'Bob', addresses: [{ type: 'fax', value: '+123' }] }), {
      'addresses.0.type': ['Choose one of: email, phone'],
    });
  });

  it('refuses unknown keys and wrong shapes with 422, never 500', async () => {
    const bodies = [
      { name: 'A', addresses: [email('a@x.io')], extra: 1 },
      { name: 'A', addresses: 'a@x.io' },
      { name: 'A', addresses: [email('a@x.io')], tags: ['x'] },
      { name: 'A', addresses: [email('a@x.io')], attributes: [{ field_id: 'x', value: 1 }] },
      { name: 'A', addresses: [email('a@x.io')], attributes: [{ field_id: 1 }] },
      { name: 'A', addresses: [email('a@x.io')], attributes: {} },
      { name: 42, addresses: [null] },
    ];
    for (const json of bodies) expect((await api(s, 'POST', '/contact', json)).status, JSON.stringify(json)).toBe(422);
    expect(await countContacts()).toBe(0);
  });

  it('stores e-mail addresses trimmed and lower-cased, in the order given', async () => {
    const contact = await create(s, 'contact', {
      name: 'Ann',
      note: '  VIP  ',
      addresses: [phone('+15550100'), email('  Ann@Example.COM '), email('ann.work@example.com')],
    });
    expect(contact.note).toBe('VIP');
    expect(contact.addresses.map((a: any) => [a.type, a.value])).toEqual([
      ['phone', '+15550100'],
      ['email', 'ann@example.com'],
      ['email', 'ann.work@example.com'],
    ]);
  });

  it('keeps an address unique in the organisation: 422 on addresses.<i>.value', async () => {
    await create(s, 'contact', { name: 'Ann', addresses: [email('ann@example.com')] });
    const dup = await api(s, 'POST', '/contact', { name: 'Other', addresses: [phone('+15550100'), email('ANN@example.com')] });
    expect422(dup, { 'addresses.1.value': DUPLICATE });
    const twice = await api(s, 'POST', '/contact', { name: 'Other', addresses: [email('x@example.com'), email('X@example.com')] });
    expect422(twice, { 'addresses.1.value': DUPLICATE });
    expect(await countContacts()).toBe(1);
    expect((await rows('SELECT value FROM contact_addresses WHERE org_id = ?', s.orgId)).map((r: any) => r.value)).toEqual(['ann@example.com']);
    // The same value under the other type, or in another organisation, is a different address.
    const t = await newSession('con');
    expect((await api(t, 'POST', '/contact', { name: 'Ann', addresses: [email('ann@example.com')] })).status).toBe(201);
  });

  it('creates exactly one of several simultaneous contacts with the same address, leaving no partial rows', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api(s, 'POST', '/contact', { name: `Racer ${i}`, addresses: [email('race@example.com')] })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422]);
    for (const r of results.filter((r) => r.status === 422)) expect(Object.values(r.body.error.fields).flat()).toEqual(DUPLICATE);
    expect(await countContacts()).toBe(1);
    expect(await rows('SELECT id FROM contact_addresses WHERE org_id = ?', s.orgId)).toHaveLength(1);
  });
});

describe('contact tags and attributes', () => {
  async function fixtures() {
    const vip = await create(s, 'tag', { name: 'VIP' });
    const lead = await create(s, 'tag', { name: 'Lead' });
    const age = await create(s, 'field', { name: 'Age', alias: 'age', type: 'number' });
    const city = await create(s, 'field', { name: 'City', alias: 'city', type: 'text' });
    const optIn = await create(s, 'field', { name: 'Opt-in', alias: 'opt_in', type: 'boolean' });
    const tier = await create(s, 'field', { name: 'Tier', alias: 'tier', type: 'select', options: [{ value: 'gold' }, { value: 'silver' }] });
    const likes = await create(s, 'field', {
      name: 'Likes',
      alias: 'likes',
      type: 'multiselect',
      options: [{ value: 'tea' }, { value: 'coffee' }, { value: 'cake' }],
    });
    return { vip, lead, age, city, optIn, tier, likes };
  }

  it('stores and presents tags and typed attribute values', async () => {
    const f = await fixtures();
    const contact = await create(s, 'contact', {
      name: 'Ann',
      addresses: [email('ann@example.com')],
      tags: [f.lead.id, f.vip.id, f.lead.id],
      attributes: [
        { field_id: f.likes.id, value: [{ option_id: f.likes.options[2].id }, { option_id: f.likes.options[0].id }] },
        { field_id: f.age.id, value: 41.5 },
        { field_id: f.city.id, value: ' Lisbon ' },
        { field_id: f.optIn.id, value: false },
        { field_id: f.tier.id, value: { option_id: f.tier.options[1].id } },
      ],
    });
    expect(contact.tags).toEqual([
      { id: f.vip.id, name: 'VIP' },
      { id: f.lead.id, name: 'Lead' },
    ]);
    // Attributes come in field order; multiselect options in option order.
    expect(contact.attributes).toEqual([
      { field_id: f.age.id, value: 41.5 },
      { field_id: f.city.id, value: 'Lisbon' },
      { field_id: f.optIn.id, value: false },
      { field_id: f.tier.id, value: { option_id: f.tier.options[1].id } },
      { field_id: f.likes.id, value: [{ option_id: f.likes.options[0].id }, { option_id: f.likes.options[2].id }] },
    ]);
    expect((await api(s, 'GET', `/contact/${contact.id}`)).body.data).toEqual(contact);
  });

  it('refuses attribute values of the wrong type, each on its own path', async () => {
    const f = await fixtures();
    const res = await api(s, 'POST', '/contact', {
      name: 'Ann',
      addresses: [email('ann@example.com')],
      attributes: [
        { field_id: f.age.id, value: '41' },
        { field_id: f.city.id, value: 7 },
        { field_id: f.optIn.id, value: 'yes' },
        { field_id: f.tier.id, value: [{ option_id: f.tier.options[0].id }] },
        { field_id: f.likes.id, value: { option_id: f.likes.options[0].id } },
      ],
    });
    expect422(res, {
      'attributes.0.value': ['Must be a number'],
      'attributes.1.value': ['Must be text'],
      'attributes.2.value': ['Must be true or false'],
      'attributes.3.value': ['Must be one option: { option_id }'],
      'attributes.4.value': ['Must be a list of options: [{ option_id }]'],
    });
    expect(await countContacts()).toBe(0);
  });

  it('refuses unknown tags, fields, options of another field, and a field given twice', async () => {
    const f = await fixtures();
    const res = await api(s, 'POST', '/contact', {
      name: 'Ann',
      addresses: [email('ann@example.com')],
      tags: [f.vip.id, f.vip.id, 999_999],
      attributes: [
        { field_id: 999_999, value: 1 },
        { field_id: f.tier.id, value: { option_id: f.likes.options[0].id } },
        { field_id: f.likes.id, value: [{ option_id: f.likes.options[0].id }, { option_id: f.tier.options[0].id }] },
      ],
    });
    expect422(res, {
      'tags.2': ['Tag not found'],
      'attributes.0.field_id': ['Field not found'],
      'attributes.1.value': ['Choose one of the field options'],
      'attributes.2.value': ['Choose one of the field options'],
    });
    const twice = await api(s, 'POST', '/contact', {
      name: 'Ann',
      addresses: [email('ann@example.com')],
      attributes: [
        { field_id: f.age.id, value: 1 },
        { field_id: f.age.id, value: 2 },
      ],
    });
    expect422(twice, { 'attributes.1.field_id': DUPLICATE });
    expect(await countContacts()).toBe(0);
    expect(await rows('SELECT * FROM contact_addresses WHERE org_id = ?', s.orgId)).toEqual([]);
  });

  it('treats null, empty text and an empty option list as no value', async () => {
    const f = await fixtures();
    const contact = await create(s, 'contact', {
      name: 'Ann',
      addresses: [email('ann@example.com')],
      attributes: [
        { field_id: f.age.id, value: null },
        { field_id: f.city.id, value: '  ' },
        { field_id: f.likes.id, value: [] },
      ],
    });
    expect(contact.attributes).toEqual([]);
    expect(await rows('SELECT id FROM contact_attributes WHERE contact_id = ?', contact.id)).toEqual([]);
  });
});

describe('contact update', () => {
  it('keeps address ids, removes left-out addresses, adds new ones and keeps the order', async () => {
    const contact = await create(s, 'contact', { name: 'Ann', addresses: [email('a@example.com'), phone('+15550100'), email('b@example.com')] });
    const [a, p] = contact.addresses;
    const res = await api(s, 'PUT', `/contact/${contact.id}`, {
      name: 'Ann',
      addresses: [email('new@example.com'), { ...p, value: '+15550199' }, { id: a.id, type: 'email', value: 'a2@example.com' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.addresses).toEqual([
      { id: expect.any(Number), type: 'email', value: 'new@example.com' },
      { id: p.id, type: 'phone', value: '+15550199' },
      { id: a.id, type: 'email', value: 'a2@example.com' },
    ]);
    expect((await rows('SELECT value FROM contact_addresses WHERE contact_id = ? ORDER BY position', contact.id)).map((r: any) => r.value)).toEqual([
      'new@example.com',
      '+15550199',
      'a2@example.com',
    ]);
  });

  it('swaps the values of two addresses without tripping the unique index', async () => {
    const contact = await create(s, 'contact', { name: 'Ann', addresses: [email('a@example.com'), email('b@example.com')] });
    const [a, b] = contact.addresses;
    const res = await api(s, 'PATCH', `/contact/${contact.id}`, {
      addresses: [
        { ...a, value: 'b@example.com' },
        { ...b, value: 'a@example.com' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.addresses).toEqual([
      { id: a.id, type: 'email', value: 'b@example.com' },
      { id: b.id, type: 'email', value: 'a@example.com' },
    ]);
  });

  it('locks the type of an existing address and refuses ids of other contacts', async () => {
    const contact = await create(s, 'contact', { name: 'Ann', addresses: [email('a@example.com')] });
    const other = await create(s, 'contact', { name: 'Bob', addresses: [email('bob@example.com')] });
    const a = contact.addresses[0];
    expect422(await api(s, 'PATCH', `/contact/${contact.id}`, { addresses: [{ id: a.id, type: 'phone', value: '+15550100' }] }), {
      'addresses.0.type': ['The address type cannot be changed'],
    });
    expect422(await api(s, 'PATCH', `/contact/${contact.id}`, { addresses: [{ id: other.addresses[0].id, type: 'email', value: 'bob2@example.com' }] }), {
      'addresses.0.id': ['This address does not belong to the contact'],
    });
    expect((await api(s, 'GET', `/contact/${contact.id}`)).body.data.addresses).toEqual(contact.addresses);
    expect((await api(s, 'GET', `/contact/${other.id}`)).body.data.addresses).toEqual(other.addresses);
  });

  it("refuses taking another contact's address, and allows re-sending its own", async () => {
    const ann = await create(s, 'contact', { name: 'Ann', addresses: [email('ann@example.com')] });
    const bob = await create(s, 'contact', { name: 'Bob', addresses: [email('bob@example.com')] });
    expect422(await api(s, 'PATCH', `/contact/${bob.id}`, { addresses: [email('bob@example.com'), email('ann@example.com')] }), {
      'addresses.1.value': DUPLICATE,
    });
    // Without its id, the own address is removed and added again.
    const again = await api(s, 'PATCH', `/contact/${ann.id}`, { addresses: [email('ann@example.com')] });
    expect(again.status).toBe(200);
    expect(again.body.data.addresses.map((a: any) => a.value)).toEqual(['ann@example.com']);
  });

  it('PUT replaces note, tags and attributes; PATCH changes only what it sends', async () => {
    const tag = await create(s, 'tag', { name: 'VIP' });
    const age = await create(s, 'field', { name: 'Age', alias: 'age', type: 'number' });
    const contact = await create(s, 'contact', {
      name: 'Ann',
      note: 'note',
      addresses: [email('ann@example.com')],
      tags: [tag.id],
      attributes: [{ field_id: age.id, value: 30 }],
    });
    const patched = await api(s, 'PATCH', `/contact/${contact.id}`, { name: 'Anna' });
    expect(patched.body.data).toMatchObject({ name: 'Anna', note: 'note', tags: [{ id: tag.id }], attributes: [{ field_id: age.id, value: 30 }] });
    const retag = await api(s, 'PATCH', `/contact/${contact.id}`, { tags: [], attributes: [{ field_id: age.id, value: 31 }] });
    expect(retag.body.data).toMatchObject({ name: 'Anna', tags: [], attributes: [{ field_id: age.id, value: 31 }] });
    const put = await api(s, 'PUT', `/contact/${contact.id}`, { name: 'Ann', addresses: retag.body.data.addresses });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'Ann', note: null, tags: [], attributes: [] });
    expect(await rows('SELECT * FROM contact_attributes WHERE contact_id = ?', contact.id)).toEqual([]);
  });

  it('changes nothing when an update is refused', async () => {
    const tag = await create(s, 'tag', { name: 'VIP' });
    const contact = await create(s, 'contact', { name: 'Ann', addresses: [email('ann@example.com')], tags: [tag.id] });
    const res = await api(s, 'PUT', `/contact/${contact.id}`, { name: 'Changed', addresses: [email('new@example.com')], tags: [tag.id, 999_999] });
    expect422(res, { 'tags.1': ['Tag not found'] });
    expect((await api(s, 'GET', `/contact/${contact.id}`)).body.data).toEqual(contact);
  });

  it('deletes a contact with its child rows, alone or in bulk', async () => {
    const tag = await create(s, 'tag', { name: 'VIP' });
    const a = await create(s, 'contact', { name: 'Ann', addresses: [email('ann@example.com')], tags: [tag.id] });
    const b = await create(s, 'contact', { name: 'Bob', addresses: [email('bob@example.com')], tags: [tag.id] });
    expect((await api(s, 'DELETE', `/contact/${a.id}`)).body).toEqual({ data: { deleted: 1 } });
    expect((await api(s, 'GET', `/contact/${a.id}`)).status).toBe(404);
    expect((await api(s, 'DELETE', '/contact', { all: true, tags: [tag.id] })).body).toEqual({ data: { deleted: 1, more: false } });
    expect((await list(s, 'contact')).meta.total).toBe(0);
    expect(await rows('SELECT contact_id FROM contact_addresses WHERE contact_id IN (?, ?)', a.id, b.id)).toEqual([]);
    expect(await rows('SELECT contact_id FROM contact_tags WHERE contact_id IN (?, ?)', a.id, b.id)).toEqual([]);
    // The tag itself stays.
    expect((await api(s, 'GET', `/tag/${tag.id}`)).status).toBe(200);
  });

  it('deletes "all" page by page: each page takes whole contacts (addresses, tags, attributes, search rows) and nothing else', async () => {
    const tag = await create(s, 'tag', { name: 'Paged' });
    const kept = await create(s, 'contact', { name: 'Kept', addresses: [email('kept@example.com')] });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(s, 'contact', { name: `Paged ${i}`, addresses: [email(`p${i}@example.com`)], tags: [tag.id] })).id);
    const first = await api(s, 'DELETE', '/contact', { all: true, tags: [tag.id], page_size: 3 });
    expect(first.body).toEqual({ data: { deleted: 3, more: true } });
    // After one page (an interruption here): three contacts are gone whole, two are whole and still listed.
    const left = (await list(s, 'contact')).items.map((c: { id: number }) => c.id).sort((x: number, y: number) => x - y);
    expect(left).toEqual([kept.id, ...ids.slice(3)].sort((x, y) => x - y));
    const orphans = await rows(
      `SELECT 'address' AS t, contact_id FROM contact_addresses WHERE contact_id IN (${ids.join(',')})
       UNION ALL SELECT 'tag', contact_id FROM contact_tags WHERE contact_id IN (${ids.join(',')})`,
    );
    expect(orphans.map((r) => r.contact_id).sort()).toEqual([...ids.slice(3), ...ids.slice(3)].sort());
    expect((await api(s, 'GET', '/contact?search=p1%40example')).body.meta.total).toBe(0);
    expect((await api(s, 'DELETE', '/contact', { all: true, tags: [tag.id], page_size: 3 })).body).toEqual({ data: { deleted: 2, more: false } });
    expect((await list(s, 'contact')).items.map((c: { id: number }) => c.id)).toEqual([kept.id]);
  });
});
