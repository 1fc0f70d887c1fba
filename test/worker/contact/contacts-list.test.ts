import { env } from 'cloudflare:workers';
import { and, desc, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { contactAttributes, contacts, contactTags } from '../../../src/db/schema';
import { contactFilterConditions, contactSearch } from '../../../src/modules/contact/filters';
import { relationQueries } from '../../../src/modules/contact/present';
import { sameOrg } from '../../../src/db/same-org';
import { api, create, list, newSession, type Session } from '../api-helpers';

let s: Session;
beforeEach(async () => {
  s = await newSession('cl');
});

const email = (value: string) => ({ type: 'email', value });
const phone = (value: string) => ({ type: 'phone', value });
const names = (body: { items: { name: string }[] }) => body.items.map((c) => c.name);

describe('contact list', () => {
  it('pages newest first by default and sorts by name, id and dates', async () => {
    for (const name of ['Carol', 'alice', 'Bob']) await create(s, 'contact', { name, addresses: [email(`${name}@example.com`)] });
    expect(names(await list(s, 'contact'))).toEqual(['Bob', 'alice', 'Carol']);
    expect(names(await list(s, 'contact', '?sort_by=id&sort_order=asc'))).toEqual(['Carol', 'alice', 'Bob']);
    expect(names(await list(s, 'contact', '?sort_by=name&sort_order=asc'))).toEqual(['Bob', 'Carol', 'alice']);
    expect(names(await list(s, 'contact', '?sort_by=created_at&sort_order=asc'))).toEqual(['Carol', 'alice', 'Bob']);
    const page = await list(s, 'contact', '?page=2&page_size=2&sort_by=id&sort_order=asc');
    expect(names(page)).toEqual(['Bob']);
    expect(page.meta).toEqual({ total: 3, page: 2, page_size: 2, total_pages: 2 });
    expect((await api(s, 'GET', '/contact?sort_by=note')).status).toBe(422);
  });

  it('presents addresses, tags and attributes of every contact on the page', async () => {
    const tag = await create(s, 'tag', { name: 'VIP' });
    const age = await create(s, 'field', { name: 'Age', alias: 'age', type: 'number' });
    for (let i = 0; i < 25; i++) {
      await create(s, 'contact', {
        name: `C${String(i).padStart(2, '0')}`,
        addresses: [email(`c${i}@example.com`), phone(`+1555000${String(i).padStart(2, '0')}`)],
        tags: i % 2 ? [tag.id] : [],
        attributes: [{ field_id: age.id, value: i }],
      });
    }
    const page = await list(s, 'contact', '?sort_by=name&sort_order=asc&page_size=25');
    expect(page.items).toHaveLength(25);
    page.items.forEach((c: any, i: number) => {
      expect(c.addresses.map((a: any) => a.value)).toEqual([`c${i}@example.com`, `+1555000${String(i).padStart(2, '0')}`]);
      expect(c.tags).toEqual(i % 2 ? [{ id: tag.id, name: 'VIP' }] : []);
      expect(c.attributes).toEqual([{ field_id: age.id, value: i }]);
    });
  });

  it('searches name, note and address values', async () => {
    await create(s, 'contact', { name: 'Ann Lee', addresses: [email('ann@alpha.io')] });
    await create(s, 'contact', { name: 'Bob', note: 'met at Lisbon fair', addresses: [email('bob@beta.io')] });
    await create(s, 'contact', { name: 'Cy', addresses: [phone('+351911222333'), email('cy@gamma.io')] });
    expect(names(await list(s, 'contact', '?search=lee'))).toEqual(['Ann Lee']);
    expect(names(await list(s, 'contact', '?search=lisbon'))).toEqual(['Bob']);
    expect(names(await list(s, 'contact', '?search=beta.io'))).toEqual(['Bob']);
    expect(names(await list(s, 'contact', '?search=%2B351'))).toEqual(['Cy']);
    expect(names(await list(s, 'contact', '?search=.io&sort_by=name&sort_order=asc'))).toEqual(['Ann Lee', 'Bob', 'Cy']);
    expect((await list(s, 'contact', '?search=%25')).items).toEqual([]);
  });

  it('keeps the search index in step with renames, address changes, deletes and other organisations', async () => {
    const ann = await create(s, 'contact', { name: 'Ann Lee', note: 'say "hi"', addresses: [email('ann@alpha.io')] });
    const other = await newSession('cl-other');
    await create(other, 'contact', { name: 'Ann Other', addresses: [email('ann@other.io')] });
    expect(names(await list(s, 'contact', '?search=ann'))).toEqual(['Ann Lee']);
    expect(names(await list(s, 'contact', `?search=${encodeURIComponent('"hi"')}`))).toEqual(['Ann Lee']);

    await api(s, 'PUT', `/contact/${ann.id}`, { name: 'Anna Berg', addresses: [email('anna@delta.io')] });
    expect(names(await list(s, 'contact', '?search=lee'))).toEqual([]);
    expect(names(await list(s, 'contact', '?search=berg'))).toEqual(['Anna Berg']);
    expect(names(await list(s, 'contact', '?search=alpha.io'))).toEqual([]);
    expect(names(await list(s, 'contact', '?search=delta.io'))).toEqual(['Anna Berg']);
    expect(names(await list(s, 'contact', '?address=delta'))).toEqual(['Anna Berg']);

    await api(s, 'DELETE', `/contact/${ann.id}`);
    expect((await list(s, 'contact', '?search=anna')).items).toEqual([]);
    const left = await env.DB.prepare(
      'SELECT (SELECT COUNT(*) FROM contact_text_search WHERE rowid = ?1) + (SELECT COUNT(*) FROM contact_address_search WHERE contact_id = ?1) AS n',
    )
      .bind(ann.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });

  it('filters by ids, tags (any of) and address substring', async () => {
    const vip = await create(s, 'tag', { name: 'VIP' });
    const lead = await create(s, 'tag', { name: 'Lead' });
    const other = await create(s, 'tag', { name: 'Other' });
    const a = await create(s, 'contact', { name: 'A', addresses: [email('a@alpha.io')], tags: [vip.id] });
    const b = await create(s, 'contact', { name: 'B', addresses: [email('b@beta.io')], tags: [lead.id, vip.id] });
    await create(s, 'contact', { name: 'C', addresses: [email('c@alpha.io')], tags: [other.id] });
    const sorted = '&sort_by=name&sort_order=asc';
    expect(names(await list(s, 'contact', `?ids=${a.id}&ids=${b.id}${sorted}`))).toEqual(['A', 'B']);
    expect(names(await list(s, 'contact', `?tags=${vip.id}${sorted}`))).toEqual(['A', 'B']);
    expect(names(await list(s, 'contact', `?tags=${lead.id}&tags=${other.id}${sorted}`))).toEqual(['B', 'C']);
    expect(names(await list(s, 'contact', `?address=alpha${sorted}`))).toEqual(['A', 'C']);
    expect(names(await list(s, 'contact', `?address=alpha&tags=${vip.id}`))).toEqual(['A']);
    expect((await api(s, 'GET', '/contact?tags=abc')).status).toBe(422);
  });

  it('filters by attributes: <field_id>:<value>, any value of one field, every field given', async () => {
    const age = await create(s, 'field', { name: 'Age', alias: 'age', type: 'number' });
    const city = await create(s, 'field', { name: 'City', alias: 'city', type: 'text' });
    const optIn = await create(s, 'field', { name: 'Opt-in', alias: 'opt_in', type: 'boolean' });
    const tier = await create(s, 'field', { name: 'Tier', alias: 'tier', type: 'select', options: [{ value: 'gold' }, { value: 'silver' }] });
    const likes = await create(s, 'field', { name: 'Likes', alias: 'likes', type: 'multiselect', options: [{ value: 'tea' }, { value: 'cake' }] });
    const [gold, silver] = tier.options.map((o: any) => o.id);
    const [tea, cake] = likes.options.map((o: any) => o.id);
    const people = [
      { name: 'A', age: 30, city: 'Lisbon', opt: true, tier: gold, likes: [tea] },
      { name: 'B', age: 41.5, city: 'Porto', opt: false, tier: silver, likes: [tea, cake] },
      { name: 'C', age: 30, city: 'lisbon', opt: true, tier: silver, likes: [] },
    ];
    for (const p of people) {
      await create(s, 'contact', {
        name: p.name,
        addresses: [email(`${p.name}@example.com`)],
        attributes: [
          { field_id: age.id, value: p.age },
          { field_id: city.id, value: p.city },
          { field_id: optIn.id, value: p.opt },
          { field_id: tier.id, value: { option_id: p.tier } },
          { field_id: likes.id, value: p.likes.map((option_id) => ({ option_id })) },
        ],
      });
    }
    const find = async (...filters: string[]) =>
      names(await list(s, 'contact', `?sort_by=name&sort_order=asc&${filters.map((f) => `attributes=${encodeURIComponent(f)}`).join('&')}`));
    expect(await find(`${age.id}:30`)).toEqual(['A', 'C']);
    expect(await find(`${age.id}:41.5`)).toEqual(['B']);
    expect(await find(`${city.id}:Lisbon`)).toEqual(['A']);
    expect(await find(`${optIn.id}:true`)).toEqual(['A', 'C']);
    expect(await find(`${optIn.id}:false`)).toEqual(['B']);
    expect(await find(`${tier.id}:${silver}`)).toEqual(['B', 'C']);
    expect(await find(`${likes.id}:${cake}`)).toEqual(['B']);
    expect(await find(`${likes.id}:${tea}`)).toEqual(['A', 'B']);
    // Same field: any of the values; different fields: all of them.
    expect(await find(`${city.id}:Lisbon`, `${city.id}:Porto`)).toEqual(['A', 'B']);
    expect(await find(`${age.id}:30`, `${tier.id}:${silver}`)).toEqual(['C']);
    expect(await find(`${age.id}:30`, `${likes.id}:${cake}`)).toEqual([]);
    // Bulk delete takes the same filter as a JSON array.
    expect((await api(s, 'DELETE', '/contact', { all: true, attributes: [`${likes.id}:${cake}`] })).body).toEqual({ data: { deleted: 1, more: false } });
    expect(names(await list(s, 'contact', '?sort_by=name&sort_order=asc'))).toEqual(['A', 'C']);
    for (const bad of ['abc', ':1', '0:1', '1']) {
      const res = await api(s, 'GET', `/contact?attributes=${bad}`);
      expect(res.status, bad).toBe(422);
      expect(res.body.error.fields['attributes.0']).toEqual(['attributes must look like <field_id>:<value>']);
    }
  });
});

describe('contact list query plans', () => {
  // The list runs `SELECT ... FROM contacts WHERE org_id = ? AND <filters> ORDER BY <sort>, id LIMIT ? OFFSET ?`
  // and a count with the same condition; check SQLite serves them from indexes that lead with org_id.
  // The default order, created_at, sorts by id (the order of creation).
  async function plan(condition: Parameters<typeof and>, order = desc(contacts.id)) {
    const db = createDb(env.DB);
    const query = db
      .select()
      .from(contacts)
      .where(and(eq(contacts.orgId, s.orgId), ...condition))
      .orderBy(order, desc(contacts.id))
      .limit(10)
      .toSQL();
    const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    return rows.results.map((r) => r.detail).join('\n');
  }

  it('uses org_id-leading indexes for the list, search, tag, address and attribute filters', async () => {
    const base = await plan([]);
    expect(base).toMatch(/SEARCH contacts USING INDEX contacts_org \(org_id=\?\)/);
    expect(base).not.toMatch(/SCAN contacts/);
    expect(base).not.toMatch(/TEMP B-TREE/);
    expect(await plan([], desc(contacts.name))).toMatch(/contacts_org_name \(org_id=\?\)/);

    // Search of 3+ characters is a MATCH on the trigram indexes (INDEX n:M), not a LIKE scan of every row.
    const search = await plan([contactSearch('ann', s.orgId)]);
    expect(search).toMatch(/SEARCH contacts USING INDEX contacts_org \(org_id=\?/);
    expect(search).toMatch(/SCAN contact_text_search VIRTUAL TABLE INDEX \d+:M/);
    expect(search).toMatch(/SCAN contact_address_search VIRTUAL TABLE INDEX \d+:M/);
    const shortSearch = await plan([contactSearch('an', s.orgId)]);
    expect(shortSearch).toMatch(/contact_addresses_org_value \(org_id=\?\)/);

    const tags = await plan(contactFilterConditions({ tags: [1, 2] }, s.orgId));
    expect(tags).toMatch(/contact_tags_org_tag \(org_id=\? AND tag_id=\?\)/);
    expect(tags).not.toMatch(/SCAN contact_tags/);

    const address = await plan(contactFilterConditions({ address: 'example' }, s.orgId));
    expect(address).toMatch(/SCAN contact_address_search VIRTUAL TABLE INDEX \d+:M/);

    const attributes = await plan(contactFilterConditions({ attributes: [{ field_id: 1, value: '30' }] }, s.orgId));
    expect(attributes).toMatch(/contact_attributes_org_field_text \(org_id=\? AND field_id=\? AND value_text=\?\)/);
    expect(attributes).toMatch(/contact_attributes_org_field_number \(org_id=\? AND field_id=\? AND value_number=\?\)/);
    const option = await plan(contactFilterConditions({ attributes: [{ field_id: 1, value: '7' }] }, s.orgId));
    expect(option).toMatch(/contact_attributes_org_option \(org_id=\? AND option_id=\?\)/);
    expect(attributes).not.toMatch(/SCAN contact_attributes/);
  });

  async function explain(query: { sql: string; params: unknown[] }) {
    const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    return rows.results.map((r) => r.detail).join('\n');
  }

  it('loads a page of relations and rewrites a contact through contact-keyed indexes, not the whole organisation', async () => {
    const db = createDb(env.DB);
    const [addresses, tags, attributes] = relationQueries(db, s.orgId, [1, 2, 3]).map((q) => q.toSQL());
    expect(await explain(addresses)).toMatch(/contact_addresses USING INDEX contact_addresses_contact \(contact_id=\?\)/);
    expect(await explain(tags)).toMatch(/contact_tags USING (COVERING )?INDEX sqlite_autoindex_contact_tags_1 \(contact_id=\?\)/);
    expect(await explain(tags)).toMatch(/SEARCH tags USING INTEGER PRIMARY KEY/);
    expect(await explain(attributes)).toMatch(/contact_attributes USING INDEX contact_attributes_contact \(contact_id=\?\)/);
    expect(await explain(attributes)).toMatch(/SEARCH fields USING INTEGER PRIMARY KEY/);
    const clearTags = db
      .delete(contactTags)
      .where(and(sameOrg(contactTags.orgId, s.orgId), eq(contactTags.contactId, 5)))
      .toSQL();
    expect(await explain(clearTags)).toMatch(/contact_tags USING (COVERING )?INDEX sqlite_autoindex_contact_tags_1 \(contact_id=\?\)/);
    const clearAttributes = db
      .delete(contactAttributes)
      .where(and(sameOrg(contactAttributes.orgId, s.orgId), eq(contactAttributes.contactId, 5)))
      .toSQL();
    expect(await explain(clearAttributes)).toMatch(/contact_attributes USING (COVERING )?INDEX contact_attributes_contact \(contact_id=\?\)/);
  });
});
