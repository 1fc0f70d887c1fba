import type { Contact } from '@shared/contracts/contact';
import type { Field } from '@shared/contracts/field';
import { fakeApi } from './fake-api';
import { json, mockFetch, type FetchCall } from './helpers';

const NOW = '2026-11-01T10:00:00.000Z';

/** The tag fake of test/web/fake-api plus /field, /contact and /dictionary; `answer` can override any call. */
export function fakeAudienceApi(options: { fields?: Field[]; contacts?: Contact[]; answer?: (call: FetchCall) => Response | null } = {}) {
  const base = fakeApi({ tags: ['vip', 'newsletter'] });
  const fields = options.fields ?? [];
  const contacts = options.contacts ?? [];
  const list = <T>(items: T[]) => json(200, { items, meta: { total: items.length, page: 1, page_size: 100, total_pages: items.length ? 1 : 0 } });
  const mock = mockFetch(async (call) => {
    const own = options.answer?.(call);
    if (own) return own;
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization === 'Bearer acc') {
      if (path === '/field' && call.method === 'GET') return list(fields);
      if (path === '/contact' && call.method === 'GET') return list(contacts);
      const contact = /^\/contact\/(\d+)$/.exec(path);
      if (contact && call.method === 'GET') {
        const found = contacts.find((c) => c.id === Number(contact[1]));
        return found ? json(200, { data: found }) : json(404, { error: { code: 'not_found', message: 'Not found' } });
      }
      if (path === '/dictionary/address-types')
        return list([
          { id: 'email', title: 'Email' },
          { id: 'phone', title: 'Phone' },
        ]);
      if (path === '/dictionary/field-types') return list(['number', 'text', 'select', 'multiselect', 'boolean'].map((id) => ({ id, title: id })));
      if (path === '/field' && call.method === 'POST')
        return json(201, { data: { id: 50, priority: 1, options: [], created_at: NOW, updated_at: NOW, ...(call.body as object) } });
    }
    return base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) });
  });
  return { ...mock, tags: base.tags };
}

export const FIELDS: Field[] = [
  { id: 1, name: 'Age', alias: 'age', type: 'number', priority: 1, options: [], created_at: NOW, updated_at: NOW },
  { id: 2, name: 'City', alias: 'city', type: 'text', priority: 2, options: [], created_at: NOW, updated_at: NOW },
  {
    id: 3,
    name: 'Level',
    alias: 'level',
    type: 'select',
    priority: 3,
    options: [
      { id: 31, value: 'Gold' },
      { id: 32, value: 'Silver' },
    ],
    created_at: NOW,
    updated_at: NOW,
  },
  {
    id: 4,
    name: 'Topics',
    alias: 'topics',
    type: 'multiselect',
    priority: 4,
    options: [
      { id: 41, value: 'News' },
      { id: 42, value: 'Sales' },
    ],
    created_at: NOW,
    updated_at: NOW,
  },
  { id: 5, name: 'Active', alias: 'active', type: 'boolean', priority: 5, options: [], created_at: NOW, updated_at: NOW },
];

export const CONTACT: Contact = {
  id: 9,
  name: 'Ann',
  note: null,
  language: null,
  addresses: [
    { id: 91, type: 'email', value: 'ann@x.io' },
    { id: 92, type: 'phone', value: '+15550001' },
  ],
  // Ann's phone is on the blacklist.
  blacklisted_addresses: [92],
  tags: [{ id: 1, name: 'vip' }],
  attributes: [
    { field_id: 1, value: 42 },
    { field_id: 3, value: { option_id: 32 } },
    { field_id: 4, value: [{ option_id: 41 }] },
    { field_id: 5, value: true },
  ],
  created_at: NOW,
  updated_at: NOW,
};
