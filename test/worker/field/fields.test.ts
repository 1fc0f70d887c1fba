import { beforeEach, describe, expect, it } from 'vitest';
import { api, create, expect422, list, newSession, rows, type Session } from '../api-helpers';

let s: Session;
beforeEach(async () => {
  s = await newSession('fld');
});

const REQUIRED = ['This field is required'];
const DUPLICATE = ['Value already exists, use a different one.'];

describe('field validation', () => {
  it('requires name, alias and type', async () => {
    expect422(await api(s, 'POST', '/field', {}), { name: REQUIRED, alias: REQUIRED, type: REQUIRED });
    expect422(await api(s, 'POST', '/field', { name: '  ', alias: '', type: 'text' }), { name: REQUIRED, alias: REQUIRED });
    expect((await list(s, 'field')).meta.total).toBe(0);
  });

  it('accepts only lower-case letters, digits and underscores starting with a letter in the alias', async () => {
    for (const alias of ['1abc', '_abc', 'Abc', 'ab-c', 'ab c', 'ab.c', 'ébc']) {
      expect422(await api(s, 'POST', '/field', { name: 'N', alias, type: 'text' }), {
        alias: ['Use lower-case letters, digits and underscores, starting with a letter'],
      });
    }
    const ok = await create(s, 'field', { name: 'N', alias: 'a1_b2', type: 'text' });
    expect(ok.alias).toBe('a1_b2');
  });

  it('refuses an unknown type', async () => {
    expect422(await api(s, 'POST', '/field', { name: 'N', alias: 'n', type: 'date' }), {
      type: ['Choose one of: number, text, select, multiselect, boolean'],
    });
  });

  it('keeps the alias unique per organisation, on create and update', async () => {
    await create(s, 'field', { name: 'Level', alias: 'level', type: 'number' });
    const other = await create(s, 'field', { name: 'City', alias: 'city', type: 'text' });
    expect422(await api(s, 'POST', '/field', { name: 'Level 2', alias: 'level', type: 'text' }), { alias: DUPLICATE });
    expect422(await api(s, 'PATCH', `/field/${other.id}`, { alias: 'level' }), { alias: DUPLICATE });
    expect((await list(s, 'field')).items.map((f: any) => f.alias)).toEqual(['level', 'city']);
    // Another organisation may use the same alias.
    const t = await newSession('fld');
    expect((await api(t, 'POST', '/field', { name: 'Level', alias: 'level', type: 'text' })).status).toBe(201);
  });

  it('does not accept a type on update (PUT or PATCH) and keeps the type', async () => {
    const field = await create(s, 'field', { name: 'Score', alias: 'score', type: 'number' });
    const message = { type: ['The field type cannot be changed after creation'] };
    expect422(await api(s, 'PUT', `/field/${field.id}`, { name: 'Score', alias: 'score', type: 'text' }), message);
    expect422(await api(s, 'PATCH', `/field/${field.id}`, { type: 'number' }), message);
    const put = await api(s, 'PUT', `/field/${field.id}`, { name: 'Points', alias: 'points' });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'Points', alias: 'points', type: 'number' });
  });

  it('refuses duplicate option values in one request', async () => {
    expect422(await api(s, 'POST', '/field', { name: 'Size', alias: 'size', type: 'select', options: [{ value: 'S' }, { value: 'M' }, { value: 'S' }] }), {
      'options.2.value': DUPLICATE,
    });
    expect422(await api(s, 'POST', '/field', { name: 'Size', alias: 'size', type: 'select', options: [{ value: ' ' }] }), {
      'options.0.value': REQUIRED,
    });
  });
});

describe('field options', () => {
  it('keeps options of select and multiselect fields, in order, and drops them for other types', async () => {
    const select = await create(s, 'field', { name: 'Size', alias: 'size', type: 'select', options: [{ value: 'S' }, { value: 'M' }, { value: 'L' }] });
    expect(select.options.map((o: any) => o.value)).toEqual(['S', 'M', 'L']);
    expect(select.options.every((o: any) => Number.isInteger(o.id))).toBe(true);
    const multi = await create(s, 'field', { name: 'Likes', alias: 'likes', type: 'multiselect', options: [{ value: 'tea' }, { value: 'coffee' }] });
    expect(multi.options.map((o: any) => o.value)).toEqual(['tea', 'coffee']);
    for (const type of ['text', 'number', 'boolean']) {
      const field = await create(s, 'field', { name: type, alias: `f_${type}`, type, options: [{ value: 'x' }] });
      expect(field.options).toEqual([]);
    }
    expect(await rows('SELECT value FROM field_options WHERE org_id = ? ORDER BY id', s.orgId)).toEqual(
      ['S', 'M', 'L', 'tea', 'coffee'].map((value) => ({ value })),
    );
  });

  it('renames options with an id, adds those without, removes the missing ones, and keeps the new order', async () => {
    const field = await create(s, 'field', { name: 'Size', alias: 'size', type: 'select', options: [{ value: 'S' }, { value: 'M' }, { value: 'L' }] });
    const [small, medium, large] = field.options;
    const res = await api(s, 'PUT', `/field/${field.id}`, {
      name: 'Size',
      alias: 'size',
      options: [{ id: large.id, value: 'Large' }, { value: 'XL' }, { id: small.id, value: 'Small' }],
    });
    expect(res.status).toBe(200);
    const options = res.body.data.options;
    expect(options.map((o: any) => o.value)).toEqual(['Large', 'XL', 'Small']);
    expect(options[0].id).toBe(large.id);
    expect(options[2].id).toBe(small.id);
    expect(options.map((o: any) => o.id)).not.toContain(medium.id);
    expect(await rows('SELECT id FROM field_options WHERE id = ?', medium.id)).toEqual([]);
  });

  it('swaps two option values without tripping the unique index', async () => {
    const field = await create(s, 'field', { name: 'Yes', alias: 'yn', type: 'select', options: [{ value: 'yes' }, { value: 'no' }] });
    const [yes, no] = field.options;
    const res = await api(s, 'PATCH', `/field/${field.id}`, {
      options: [
        { id: yes.id, value: 'no' },
        { id: no.id, value: 'yes' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.options).toEqual([
      { id: yes.id, value: 'no' },
      { id: no.id, value: 'yes' },
    ]);
  });

  it('leaves options alone when an update does not send them', async () => {
    const field = await create(s, 'field', { name: 'Size', alias: 'size', type: 'select', options: [{ value: 'S' }] });
    const res = await api(s, 'PATCH', `/field/${field.id}`, { name: 'Sizes' });
    expect(res.body.data.options).toEqual(field.options);
  });

  it('refuses an option id of another field and changes nothing', async () => {
    const a = await create(s, 'field', { name: 'A', alias: 'a', type: 'select', options: [{ value: 'x' }] });
    const b = await create(s, 'field', { name: 'B', alias: 'b', type: 'select', options: [{ value: 'y' }] });
    const res = await api(s, 'PATCH', `/field/${a.id}`, { name: 'A2', options: [{ id: b.options[0].id, value: 'z' }] });
    expect422(res, { 'options.0.id': ['This option does not belong to the field'] });
    expect((await api(s, 'GET', `/field/${a.id}`)).body.data).toMatchObject({ name: 'A', options: a.options });
    expect((await api(s, 'GET', `/field/${b.id}`)).body.data.options).toEqual(b.options);
  });

  it('ignores options sent to a field whose type has none', async () => {
    const field = await create(s, 'field', { name: 'City', alias: 'city', type: 'text' });
    const res = await api(s, 'PATCH', `/field/${field.id}`, { options: [{ value: 'x' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.options).toEqual([]);
    expect(await rows('SELECT id FROM field_options WHERE field_id = ?', field.id)).toEqual([]);
  });
});

describe('field list', () => {
  it('orders by priority, reorders by drag, filters by type and searches name and alias', async () => {
    const a = await create(s, 'field', { name: 'Age', alias: 'age', type: 'number' });
    const b = await create(s, 'field', { name: 'Town', alias: 'city', type: 'text' });
    const c = await create(s, 'field', { name: 'Tier', alias: 'tier', type: 'select', options: [{ value: 'gold' }] });
    expect((await list(s, 'field')).items.map((f: any) => f.id)).toEqual([a.id, b.id, c.id]);
    const reorder = await api(s, 'POST', '/field/priorities', { ids: [c.id, a.id, b.id] });
    expect(reorder.status).toBe(200);
    const items = (await list(s, 'field')).items;
    expect(items.map((f: any) => f.id)).toEqual([c.id, a.id, b.id]);
    expect(items[0].options).toEqual(c.options);
    expect((await list(s, 'field', '?type=text')).items.map((f: any) => f.id)).toEqual([b.id]);
    expect((await list(s, 'field', '?search=cit')).items.map((f: any) => f.id)).toEqual([b.id]);
    expect((await list(s, 'field', '?search=ti')).items.map((f: any) => f.id)).toEqual([c.id]);
    expect((await api(s, 'GET', '/field?type=date')).status).toBe(422);
  });
});
