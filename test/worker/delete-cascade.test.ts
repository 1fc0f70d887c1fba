import { beforeEach, describe, expect, it } from 'vitest';
import { api, create, newSession, rows, type Session } from './api-helpers';

let s: Session;
beforeEach(async () => {
  s = await newSession('cas');
});

async function setup() {
  const vip = await create(s, 'tag', { name: 'VIP' });
  const lead = await create(s, 'tag', { name: 'Lead' });
  const age = await create(s, 'field', { name: 'Age', alias: 'age', type: 'number' });
  const likes = await create(s, 'field', { name: 'Likes', alias: 'likes', type: 'multiselect', options: [{ value: 'tea' }, { value: 'cake' }] });
  const contact = await create(s, 'contact', {
    name: 'Ann',
    addresses: [{ type: 'email', value: 'ann@example.com' }],
    tags: [vip.id, lead.id],
    attributes: [
      { field_id: age.id, value: 30 },
      { field_id: likes.id, value: likes.options.map((o: any) => ({ option_id: o.id })) },
    ],
  });
  return { vip, lead, age, likes, contact };
}

const read = async (id: number) => {
  const res = await api(s, 'GET', `/contact/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('deleting what contacts refer to', () => {
  it('removes the contact_tags rows of a deleted tag; the contact still reads', async () => {
    const { vip, lead, contact } = await setup();
    expect((await api(s, 'DELETE', `/tag/${vip.id}`)).status).toBe(200);
    expect(await rows('SELECT tag_id FROM contact_tags WHERE tag_id = ?', vip.id)).toEqual([]);
    expect((await read(contact.id)).tags).toEqual([{ id: lead.id, name: 'Lead' }]);
    expect((await api(s, 'DELETE', '/tag', { ids: [lead.id] })).body).toEqual({ data: { deleted: 1, more: false } });
    expect(await rows('SELECT * FROM contact_tags WHERE contact_id = ?', contact.id)).toEqual([]);
    expect((await read(contact.id)).tags).toEqual([]);
  });

  it('removes the contact_attributes rows of a deleted field; the contact still reads', async () => {
    const { age, likes, contact } = await setup();
    expect((await api(s, 'DELETE', `/field/${likes.id}`)).status).toBe(200);
    expect(await rows('SELECT id FROM contact_attributes WHERE field_id = ?', likes.id)).toEqual([]);
    expect(await rows('SELECT id FROM field_options WHERE field_id = ?', likes.id)).toEqual([]);
    expect((await read(contact.id)).attributes).toEqual([{ field_id: age.id, value: 30 }]);
    await api(s, 'DELETE', '/field', { all: true });
    expect(await rows('SELECT * FROM contact_attributes WHERE contact_id = ?', contact.id)).toEqual([]);
    expect((await read(contact.id)).attributes).toEqual([]);
  });

  it('removes the attribute rows of an option removed from its field', async () => {
    const { likes, contact } = await setup();
    const [tea, cake] = likes.options;
    const res = await api(s, 'PATCH', `/field/${likes.id}`, { options: [tea] });
    expect(res.status).toBe(200);
    expect(await rows('SELECT id FROM contact_attributes WHERE option_id = ?', cake.id)).toEqual([]);
    const attribute = (await read(contact.id)).attributes.find((a: any) => a.field_id === likes.id);
    expect(attribute).toEqual({ field_id: likes.id, value: [{ option_id: tea.id }] });
  });

  it('deletes a subscription without touching contacts', async () => {
    const { contact } = await setup();
    const sub = await create(s, 'subscription', { name: 'News' });
    expect((await api(s, 'DELETE', `/subscription/${sub.id}`)).status).toBe(200);
    expect(await read(contact.id)).toEqual(contact);
  });
});
