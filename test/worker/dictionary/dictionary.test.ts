import { describe, expect, it } from 'vitest';
import { DICTIONARIES } from '../../../src/modules/auth/init-routes';
import { ADDRESS_TYPES } from '../../../src/shared/address';
import { FIELD_TYPES } from '../../../src/shared/contracts/field';
import { call } from '../helpers';
import { api, newSession } from '../api-helpers';

describe('dictionaries', () => {
  it('serves each dictionary as { items: [{ id, title }] }', async () => {
    const s = await newSession('dict');
    const ids = async (name: string) => {
      const res = await api(s, 'GET', `/dictionary/${name}`);
      expect(res.status).toBe(200);
      for (const item of res.body.items) expect(Object.keys(item).sort()).toEqual(['id', 'title']);
      expect(res.body.meta.total).toBe(res.body.items.length);
      return res.body.items.map((i: { id: string }) => i.id);
    };
    expect(await ids('template-types')).toEqual(['html', 'text', 'email']);
    expect(await ids('address-types')).toEqual(['email', 'phone']);
    expect(await ids('integration-types')).toEqual(['smtp', 'twilio']);
    expect(await ids('field-types')).toEqual(['number', 'text', 'select', 'multiselect', 'boolean']);
    const fieldTypes = await api(s, 'GET', '/dictionary/field-types');
    expect(fieldTypes.body.items[0]).toEqual({ id: 'number', title: 'Number' });
    for (const name of ['unknown', 'constructor', '__proto__', 'toString']) {
      expect((await api(s, 'GET', `/dictionary/${name}`)).status, name).toBe(404);
    }
  });

  it('needs a signed-in user', async () => {
    const s = await newSession('dict');
    expect((await call(s.org, '/api/v1/dictionary/field-types')).status).toBe(401);
  });

  it('agrees with the types the API validates', () => {
    expect(DICTIONARIES.field_types).toEqual([...FIELD_TYPES]);
    expect(DICTIONARIES.address_types).toEqual([...ADDRESS_TYPES]);
  });
});
