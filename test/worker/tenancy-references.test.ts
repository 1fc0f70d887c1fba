import { beforeAll, describe, expect, it } from 'vitest';
import { api, create, expect422, list, newSession, rows, type Session } from './api-helpers';

// Organisation A tries to reach organisation B's audience by id; every attempt is a 404 (or an empty result)
// and B's rows stay exactly as they were.

let a: Session;
let b: Session;
const B: Record<string, any[]> = {};
let aContact: any;
let aSelect: any;

const TABLES = ['fields', 'field_options', 'contacts', 'contact_addresses', 'contact_tags', 'contact_attributes', 'subscriptions', 'blacklist', 'tags'];

async function snapshotB() {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) out[table] = await rows(`SELECT * FROM ${table} WHERE org_id = ? ORDER BY rowid`, b.orgId);
  return out;
}

beforeAll(async () => {
  a = await newSession('ta');
  b = await newSession('tb');
  const tag = await create(b, 'tag', { name: 'B tag' });
  const select = await create(b, 'field', { name: 'B tier', alias: 'tier', type: 'select', options: [{ value: 'gold' }] });
  const number = await create(b, 'field', { name: 'B age', alias: 'age', type: 'number' });
  B.field = [select, number];
  B.tag = [tag];
  B.contact = [
    await create(b, 'contact', {
      name: 'B one',
      addresses: [{ type: 'email', value: 'one@b.example' }],
      tags: [tag.id],
      attributes: [{ field_id: select.id, value: { option_id: select.options[0].id } }],
    }),
    await create(b, 'contact', { name: 'B two', addresses: [{ type: 'phone', value: '+15550100' }] }),
  ];
  B.subscription = [await create(b, 'subscription', { name: 'B news' }), await create(b, 'subscription', { name: 'B promo' })];
  B.blacklist = [await create(b, 'blacklist', { type: 'email', value: 'spam@b.example' })];
  B['activity-log'] = (await list(b, 'activity-log', '?page_size=3')).items;

  await create(a, 'tag', { name: 'A tag' });
  aSelect = await create(a, 'field', { name: 'A tier', alias: 'tier', type: 'select', options: [{ value: 'gold' }] });
  aContact = await create(a, 'contact', { name: 'A one', addresses: [{ type: 'email', value: 'one@a.example' }] });
  await create(a, 'subscription', { name: 'A news' });
  await create(a, 'blacklist', { type: 'email', value: 'spam@a.example' });
});

const UPDATES: Record<string, unknown> = {
  field: { name: 'stolen', alias: 'stolen' },
  contact: { name: 'stolen', addresses: [{ type: 'email', value: 'stolen@a.example' }] },
  subscription: { name: 'stolen' },
};

describe.each(['field', 'contact', 'subscription', 'blacklist', 'activity-log'])('%s of organisation B', (entity) => {
  it('is not listed, read, updated, deleted or reordered by A', async () => {
    const before = await snapshotB();
    const ids: number[] = B[entity].map((row) => row.id);
    const own = await list(a, entity);
    expect(own.items.every((row: any) => !ids.includes(row.id))).toBe(true);
    const byIds = await list(a, entity, `?${ids.map((id) => `ids=${id}`).join('&')}`);
    expect(byIds.items).toEqual([]);
    expect(byIds.meta.total).toBe(0);
    for (const id of ids) {
      expect((await api(a, 'GET', `/${entity}/${id}`)).status).toBe(404);
      if (UPDATES[entity]) {
        expect((await api(a, 'PUT', `/${entity}/${id}`, UPDATES[entity])).status).toBe(404);
        expect((await api(a, 'PATCH', `/${entity}/${id}`, { name: 'stolen' })).status).toBe(404);
      }
      expect((await api(a, 'DELETE', `/${entity}/${id}`)).status).toBe(404);
    }
    if (entity !== 'activity-log') {
      expect((await api(a, 'DELETE', `/${entity}`, { ids })).body).toEqual({ data: { deleted: 0, more: false } });
    }
    if (['field', 'subscription'].includes(entity)) {
      expect((await api(a, 'POST', `/${entity}/priorities`, { ids: [...ids].reverse() })).status).toBe(404);
    }
    expect(await snapshotB()).toEqual(before);
  });
});

describe('references across organisations', () => {
  it("refuses B's tags, fields and options in A's contacts", async () => {
    const [bSelect, bNumber] = B.field;
    const res = await api(a, 'POST', '/contact', {
      name: 'A two',
      addresses: [{ type: 'email', value: 'two@a.example' }],
      tags: [B.tag[0].id],
      attributes: [
        { field_id: bNumber.id, value: 3 },
        { field_id: aSelect.id, value: { option_id: bSelect.options[0].id } },
      ],
    });
    expect422(res, {
      'tags.0': ['Tag not found'],
      'attributes.0.field_id': ['Field not found'],
      'attributes.1.value': ['Choose one of the field options'],
    });
    expect((await list(a, 'contact')).meta.total).toBe(1);
  });

  it("refuses B's address ids and option ids in A's updates, and changes nothing", async () => {
    const before = await snapshotB();
    const bAddress = B.contact[0].addresses[0];
    expect422(await api(a, 'PATCH', `/contact/${aContact.id}`, { addresses: [{ ...bAddress, value: 'x@a.example' }] }), {
      'addresses.0.id': ['This address does not belong to the contact'],
    });
    expect422(await api(a, 'PATCH', `/field/${aSelect.id}`, { options: [{ id: B.field[0].options[0].id, value: 'mine' }] }), {
      'options.0.id': ['This option does not belong to the field'],
    });
    expect((await api(a, 'GET', `/contact/${aContact.id}`)).body.data).toEqual(aContact);
    expect(await snapshotB()).toEqual(before);
  });

  it("does not let B's addresses or filters leak into A", async () => {
    // The same address may exist in both organisations.
    const same = await api(a, 'POST', '/contact', { name: 'Same', addresses: [{ type: 'email', value: 'one@b.example' }] });
    expect(same.status).toBe(201);
    expect((await list(a, 'contact', `?tags=${B.tag[0].id}`)).items).toEqual([]);
    expect((await list(a, 'contact', `?attributes=${B.field[0].id}:${B.field[0].options[0].id}`)).items).toEqual([]);
    expect((await list(a, 'contact', '?search=B%20one')).items).toEqual([]);
    expect((await list(a, 'contact', '?address=%2B15550100')).items).toEqual([]);
    expect((await list(a, 'activity-log', `?entity=contact&entity_id=${B.contact[0].id}`)).items).toEqual([]);
    await api(a, 'DELETE', `/contact/${same.body.data.id}`);
    expect((await api(b, 'GET', `/contact/${B.contact[0].id}`)).body.data).toEqual(B.contact[0]);
  });

  it('"delete all" in A leaves B whole', async () => {
    const before = await snapshotB();
    for (const entity of ['contact', 'field', 'subscription', 'blacklist']) {
      expect((await api(a, 'DELETE', `/${entity}`, { all: true })).status).toBe(200);
      expect((await list(a, entity)).meta.total).toBe(0);
    }
    expect(await snapshotB()).toEqual(before);
  });
});
