import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { CSV_ERRORS } from '../../../src/shared/csv-scanner';
import type { ImportMappingEntry } from '../../../src/shared/contracts/import';
import { createField, importCsv, newOrg, storedContacts, type Org } from './support';

// The import rules (spec 5) end to end: upload, POST /import, the real queue consumer, then what D1 holds.

const nameEmail: ImportMappingEntry[] = [
  { column: 0, target: 'name' },
  { column: 1, target: 'address', address_type: 'email' },
];

async function optionsOf(fieldId: number) {
  const { results } = await env.DB.prepare('SELECT value FROM field_options WHERE field_id = ? ORDER BY position, id').bind(fieldId).all<{ value: string }>();
  return results.map((r) => r.value);
}

async function createContact(org: Org, name: string, addresses: [string, string][]) {
  const contact = await env.DB.prepare('INSERT INTO contacts (org_id, name) VALUES (?, ?) RETURNING id').bind(org.orgId, name).first<{ id: number }>();
  for (const [i, [type, value]] of addresses.entries()) {
    await env.DB.prepare('INSERT INTO contact_addresses (org_id, contact_id, type, value, position) VALUES (?, ?, ?, ?, ?)')
      .bind(org.orgId, contact!.id, type, value, i)
      .run();
  }
  return contact!.id;
}

describe('field values', () => {
  it('reads yes/true/1 as true and no/false/0 as false in any case; ignores empty; rejects other text', async () => {
    const org = await newOrg();
    const vip = await createField(org.orgId, 'VIP', 'boolean');
    const csv = [
      'name,email,vip',
      'a,a@x.io,yes',
      'b,b@x.io,TRUE',
      'c,c@x.io,1',
      'd,d@x.io,No',
      'e,e@x.io,false',
      'f,f@x.io,0',
      'g,g@x.io,',
      'h,h@x.io,maybe',
    ].join('\n');
    const result = await importCsv(org, csv, { skip_first_line: true, mapping: [...nameEmail, { column: 2, target: 'field', field_id: vip }] });
    expect(result).toMatchObject({ status: 'success', created_count: 7, updated_count: 0, rejected_count: 1 });
    expect(result.rejections).toEqual([{ row: 9, reason: "'VIP' must be yes/no, true/false or 1/0, not 'maybe'" }]);
    const stored = await storedContacts(org.orgId);
    expect(stored.map((c) => [c.name, c.attributes.VIP ?? null])).toEqual([
      ['a', [1]],
      ['b', [1]],
      ['c', [1]],
      ['d', [0]],
      ['e', [0]],
      ['f', [0]],
      ['g', null],
    ]);
  });

  it('creates options for unknown select values, splits multiselect on commas and semicolons, and stores numbers and text', async () => {
    const org = await newOrg();
    const plan = await createField(org.orgId, 'Plan', 'select', ['gold', 'silver']);
    const hobbies = await createField(org.orgId, 'Hobbies', 'multiselect', ['music']);
    const age = await createField(org.orgId, 'Age', 'number');
    const city = await createField(org.orgId, 'City', 'text');
    const csv = [
      'name,email,plan,hobbies,age,city',
      'a,a@x.io,gold,"music, chess;go",42,Paris',
      'b,b@x.io,platinum,chess,-1.5,',
      'c,c@x.io,platinum,;;,,Rome',
      'd,d@x.io,silver,music,forty,Oslo',
    ].join('\n');
    const mapping: ImportMappingEntry[] = [
      ...nameEmail,
      { column: 2, target: 'field', field_id: plan },
      { column: 3, target: 'field', field_id: hobbies },
      { column: 4, target: 'field', field_id: age },
      { column: 5, target: 'field', field_id: city },
    ];
    const result = await importCsv(org, csv, { skip_first_line: true, mapping });
    expect(result).toMatchObject({ status: 'success', created_count: 3, rejected_count: 1 });
    expect(result.rejections).toEqual([{ row: 5, reason: "'Age' must be a number, not 'forty'" }]);
    expect(await optionsOf(plan)).toEqual(['gold', 'silver', 'platinum']);
    expect(await optionsOf(hobbies)).toEqual(['music', 'chess', 'go']);
    const stored = await storedContacts(org.orgId);
    expect(stored.map((c) => c.attributes)).toEqual([
      { Plan: ['gold'], Hobbies: ['music', 'chess', 'go'], Age: [42], City: ['Paris'] },
      { Plan: ['platinum'], Hobbies: ['chess'], Age: [-1.5] },
      { Plan: ['platinum'], City: ['Rome'] },
    ]);
  });

  it('creates missing tags once, reuses existing ones, and splits tag cells on commas and semicolons', async () => {
    const org = await newOrg();
    await env.DB.prepare("INSERT INTO tags (org_id, name, priority) VALUES (?, 'vip', 1)").bind(org.orgId).run();
    const csv = 'name,email,tags,more\na,a@x.io,"vip, news",x\nb,b@x.io,news;new;news,\nc,c@x.io,,\n';
    const result = await importCsv(org, csv, {
      skip_first_line: true,
      mapping: [...nameEmail, { column: 2, target: 'tags' }, { column: 3, target: 'tags' }],
    });
    expect(result).toMatchObject({ status: 'success', created_count: 3, rejected_count: 0 });
    const { results: tags } = await env.DB.prepare('SELECT name, priority FROM tags WHERE org_id = ? ORDER BY priority, id').bind(org.orgId).all();
    expect(tags.map((t) => t.name)).toEqual(['vip', 'news', 'x', 'new']);
    expect((await storedContacts(org.orgId)).map((c) => c.tags)).toEqual([['news', 'vip', 'x'], ['new', 'news'], []]);
  });
});

describe('addresses and matching', () => {
  it('updates the contact that already has an address instead of duplicating it; empty values change nothing', async () => {
    const org = await newOrg();
    const city = await createField(org.orgId, 'City', 'text');
    const existing = await createContact(org, 'Old Name', [['email', 'ann@x.io']]);
    await env.DB.prepare('INSERT INTO contact_attributes (org_id, contact_id, field_id, value_text) VALUES (?, ?, ?, ?)')
      .bind(org.orgId, existing, city, 'Berlin')
      .run();
    await env.DB.prepare('UPDATE contacts SET note = ? WHERE id = ?').bind('keep me', existing).run();
    const csv = 'name,email,phone,city,note\nAnn New,ANN@x.io,+4915112345,,\n,ann@x.io,,Paris,\n';
    const result = await importCsv(org, csv, {
      skip_first_line: true,
      mapping: [
        ...nameEmail,
        { column: 2, target: 'address', address_type: 'phone' },
        { column: 3, target: 'field', field_id: city },
        { column: 4, target: 'note' },
      ],
    });
    expect(result).toMatchObject({ status: 'success', created_count: 0, updated_count: 2, rejected_count: 0 });
    const stored = await storedContacts(org.orgId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      id: existing,
      name: 'Ann New',
      note: 'keep me',
      addresses: ['email:ann@x.io', 'phone:+4915112345'],
      attributes: { City: ['Paris'] },
    });
  });

  it('treats a repeated address within the file as the same contact (created once, then updated)', async () => {
    const org = await newOrg();
    const csv = 'name,email,phone,tags\nBob,bob@x.io,,a\nRobert,,+15550001,b\n"Bob B.",BOB@X.IO,+15550001,c\nCy,cy@x.io,,\n';
    const result = await importCsv(org, csv, {
      skip_first_line: true,
      mapping: [...nameEmail, { column: 2, target: 'address', address_type: 'phone' }, { column: 3, target: 'tags' }],
    });
    // Row 3 (phone only) is a new contact; row 4 links bob@x.io and +15550001, which by then belong to
    // different contacts, so it is rejected rather than merging them.
    expect(result).toMatchObject({ status: 'success', created_count: 3, updated_count: 0, rejected_count: 1 });
    expect(result.rejections![0]).toEqual({ row: 4, reason: "The row's addresses belong to different contacts (bob@x.io and +15550001)" });

    const again = await importCsv(org, 'name,email,tags\nBobby,bob@x.io,d\nBobby2,bob@x.io,e\n', {
      skip_first_line: true,
      mapping: [...nameEmail, { column: 2, target: 'tags' }],
    });
    expect(again).toMatchObject({ created_count: 0, updated_count: 2, rejected_count: 0 });
    const stored = await storedContacts(org.orgId);
    expect(stored.map((c) => [c.name, c.addresses, c.tags])).toEqual([
      ['Bobby2', ['email:bob@x.io'], ['a', 'd', 'e']],
      ['Robert', ['phone:+15550001'], ['b']],
      ['Cy', ['email:cy@x.io'], []],
    ]);
  });

  it('merges rows of one batch that share an address, and names a contact without a name after its address', async () => {
    const org = await newOrg();
    const csv = 'name,email,phone\n,solo@x.io,\nAnn,ann@x.io,\n,ann@x.io,+3361234\nAnnie,,+3361234\n';
    const result = await importCsv(org, csv, {
      skip_first_line: true,
      mapping: [...nameEmail, { column: 2, target: 'address', address_type: 'phone' }],
    });
    expect(result).toMatchObject({ created_count: 2, updated_count: 2, rejected_count: 0 });
    expect((await storedContacts(org.orgId)).map((c) => [c.name, c.addresses])).toEqual([
      ['solo@x.io', ['email:solo@x.io']],
      ['Annie', ['email:ann@x.io', 'phone:+3361234']],
    ]);
  });

  it('rejects invalid addresses and rows without any, with the row number and reason, and imports the rest', async () => {
    const org = await newOrg();
    const csv = 'name,email,phone\nok,ok@x.io,\nbad,not-an-email,\nnone,,\nphone,,0612345\n';
    const result = await importCsv(org, csv, {
      skip_first_line: true,
      mapping: [...nameEmail, { column: 2, target: 'address', address_type: 'phone' }],
    });
    expect(result).toMatchObject({ status: 'success', created_count: 1, rejected_count: 3 });
    expect(result.rejections).toEqual([
      { row: 3, reason: "Invalid email address. Please enter a valid email: 'not-an-email' (column 2, email)" },
      { row: 4, reason: 'The row has no e-mail or phone' },
      { row: 5, reason: "Invalid phone number. It must start with '+' and contain only digits: '0612345' (column 3, phone)" },
    ]);
  });
});

describe('malformed files', () => {
  it('rejects malformed, ragged and non-UTF-8 rows one by one and imports the rest (BOM, CRLF, quotes)', async () => {
    const org = await newOrg();
    const enc = new TextEncoder();
    const bytes = new Uint8Array([
      ...enc.encode('\uFEFFname,email,note\r\n'),
      ...enc.encode('"Doe, Jane",jane@x.io,"said ""hi""\r\nline two"\r\n'),
      ...enc.encode('"Bad"quote,bad@x.io,x\r\n'),
      ...enc.encode('Ragged,rag@x.io\r\n'),
      ...enc.encode('Too,many@x.io,a,b\r\n'),
      ...enc.encode('Jos'),
      0xe9,
      ...enc.encode(',jose@x.io,latin1\r\n'),
      ...enc.encode('Zoë,zoe@x.io,ünïcödé\r\n'),
      ...enc.encode('"Never closed,nc@x.io,x\r\n'),
      ...enc.encode('Last,last@x.io,end'),
    ]);
    const result = await importCsv(org, bytes, {
      skip_first_line: true,
      mapping: [...nameEmail, { column: 2, target: 'note' }],
    });
    expect(result).toMatchObject({ status: 'success', created_count: 3, rejected_count: 5 });
    expect(result.rejections).toEqual([
      { row: 3, reason: CSV_ERRORS.textAfterQuote },
      { row: 4, reason: 'The row has 2 columns; the first line has 3' },
      { row: 5, reason: 'The row has 4 columns; the first line has 3' },
      { row: 6, reason: CSV_ERRORS.encoding },
      { row: 8, reason: CSV_ERRORS.unclosedQuote },
    ]);
    expect((await storedContacts(org.orgId)).map((c) => [c.name, c.note])).toEqual([
      ['Doe, Jane', 'said "hi"\r\nline two'],
      ['Zoë', 'ünïcödé'],
      ['Last', 'end'],
    ]);
  });

  it('imports the first line too when it is not skipped', async () => {
    const org = await newOrg();
    const result = await importCsv(org, 'Ann,ann@x.io\nBob,bob@x.io', { skip_first_line: false, mapping: nameEmail });
    expect(result).toMatchObject({ status: 'success', created_count: 2 });
  });

  it('keeps the first 1,000 rejection reasons and counts all rejected rows', async () => {
    const org = await newOrg();
    const lines = ['name,email', ...Array.from({ length: 1100 }, (_, i) => `n${i},invalid-${i}`), 'ok,ok@x.io'];
    const result = await importCsv(org, lines.join('\n'), { skip_first_line: true, mapping: nameEmail });
    expect(result).toMatchObject({ status: 'success', created_count: 1, rejected_count: 1100 });
    expect(result.rejections).toHaveLength(1000);
    expect(result.rejections![0].row).toBe(2);
    expect(result.rejections![999].row).toBe(1001);
  });
});
