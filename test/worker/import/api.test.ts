import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES, type Import } from '../../../src/shared/contracts/import';
import { call } from '../helpers';
import { createField, importCsv, newOrg, startImport, upload, uploadRaw, waitForImport, type Org } from './support';

const nameEmail = [
  { column: 0, target: 'name' },
  { column: 1, target: 'address', address_type: 'email' },
] as const;

async function fieldsOf422(res: Response) {
  expect(res.status).toBe(422);
  return ((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields;
}

async function start(org: Org, csv: string, body: Record<string, unknown>) {
  const file_key = await upload(org, csv);
  return startImport(org, { file_key, file_name: 'c.csv', ...body });
}

describe('starting an import: mapping validation', () => {
  it('needs an address column, naming the address types, and a name column', async () => {
    const org = await newOrg();
    const res = await start(org, 'name,email\nAnn,a@x.io\n', { mapping: [{ column: 1, target: 'note' }] });
    expect((await fieldsOf422(res)).mapping).toEqual(['At least one column must be mapped to an address type: email, phone', "Field 'Name' is required"]);
    expect(IMPORT_MESSAGES.addressRequired).toContain('email, phone');
    const empty = await start(org, 'name,email\nAnn,a@x.io\n', {});
    expect((await fieldsOf422(empty)).mapping).toEqual(['This field is required']);
  });

  it('accepts one column as both the address and the name', async () => {
    const org = await newOrg();
    const file_key = await upload(org, 'email\nsolo@x.io\n');
    const res = await startImport(org, {
      file_key,
      file_name: 'c.csv',
      mapping: [
        { column: 0, target: 'address', address_type: 'email' },
        { column: 0, target: 'name' },
      ],
    });
    expect(res.status).toBe(201);
    const done = await waitForImport(org, ((await res.json()) as { data: Import }).data.id);
    expect(done).toMatchObject({ status: 'success', created_count: 1 });
  });

  it('reports bad entries at their path: target, address type, column range, unknown and foreign fields, repeats', async () => {
    const org = await newOrg();
    const other = await newOrg();
    const foreign = await createField(other.orgId, 'Theirs', 'text');
    const own = await createField(org.orgId, 'Mine', 'text');
    const res = await start(org, 'a,b,c\n1,x@y.io,3\n', {
      mapping: [
        ...nameEmail,
        { column: 2, target: 'address', address_type: 'fax' },
        { column: 2, target: 'spouse' },
        { column: 7, target: 'note' },
        { column: 2, target: 'field', field_id: foreign },
        { column: 2, target: 'field', field_id: own },
        { column: 1, target: 'name' },
        { column: -1, target: 'tags' },
      ],
    });
    expect(await fieldsOf422(res)).toEqual({
      'mapping.2.address_type': ['Choose one of: email, phone'],
      'mapping.3.target': ['Choose one of: name, note, address, field, tags, ignore'],
      'mapping.8.column': ['Must be a column index (0 for the first column)'],
    });
    const second = await start(org, 'a,b,c\n1,x@y.io,3\n', {
      mapping: [
        ...nameEmail,
        { column: 7, target: 'note' },
        { column: 2, target: 'field', field_id: foreign },
        { column: 2, target: 'field', field_id: own },
        { column: 1, target: 'name' },
      ],
    });
    expect(await fieldsOf422(second)).toEqual({ 'mapping.5.target': [IMPORT_MESSAGES.duplicateTarget] });
    const third = await start(org, 'a,b,c\n1,x@y.io,3\n', {
      mapping: [...nameEmail, { column: 7, target: 'note' }, { column: 2, target: 'field', field_id: foreign }, { column: 2, target: 'field', field_id: own }],
    });
    expect(await fieldsOf422(third)).toEqual({
      'mapping.2.column': ['The file has 3 columns (0 to 2)'],
      'mapping.3.field_id': ['Field not found'],
    });
    const imports = await env.DB.prepare('SELECT COUNT(*) AS n FROM imports WHERE org_id = ?').bind(org.orgId).first<{ n: number }>();
    expect(imports?.n).toBe(0);
  });

  it('refuses a file without rows to import: only the skipped first line, blank lines, or nothing', async () => {
    const org = await newOrg();
    for (const csv of ['name,email\n', 'name,email\r\n\r\n,,\n\n']) {
      const res = await start(org, csv, { mapping: nameEmail });
      expect(await fieldsOf422(res)).toEqual({ file_key: ['The file does not contain any rows for import.'] });
    }
    const headerAsData = await start(org, 'Ann,ann@x.io\n', { skip_first_line: false, mapping: nameEmail });
    expect(headerAsData.status).toBe(201);
    const emptyUpload = await uploadRaw(org, '');
    expect(await fieldsOf422(emptyUpload)).toEqual({ file: ['The file does not contain any rows for import.'] });
  });

  it('starts each uploaded file once (409 on a second start)', async () => {
    const org = await newOrg();
    const file_key = await upload(org, 'name,email\nAnn,a@x.io\n');
    const first = await startImport(org, { file_key, file_name: 'c.csv', mapping: [...nameEmail] });
    expect(first.status).toBe(201);
    const second = await startImport(org, { file_key, file_name: 'c.csv', mapping: [...nameEmail] });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ error: { code: 'conflict', message: IMPORT_MESSAGES.alreadyStarted } });
    await waitForImport(org, ((await first.json()) as { data: Import }).data.id);
  });
});

describe('the import list and item', () => {
  it('lists with the shared contract (newest first, status filter, search) and reads one with its rejections', async () => {
    const org = await newOrg();
    const ok = await importCsv(org, 'name,email\nAnn,a@x.io\nBad,nope\n', { skip_first_line: true, mapping: [...nameEmail] });
    const second = await importCsv(org, 'name,email\nBob,b@x.io\n', { skip_first_line: true, mapping: [...nameEmail] });
    const res = await call(org.domain, '/api/v1/import', { token: org.token });
    const list = (await res.json()) as { items: Import[]; meta: Record<string, number> };
    expect(list.meta).toEqual({ total: 2, page: 1, page_size: 10, total_pages: 1 });
    expect(list.items.map((i) => i.id)).toEqual([second.id, ok.id]);
    expect(list.items[1]).toMatchObject({ status: 'success', created_count: 1, rejected_count: 1, rejections: null, file_name: 'contacts.csv' });
    const filtered = await call(org.domain, '/api/v1/import?status=fail', { token: org.token });
    expect(((await filtered.json()) as { items: Import[] }).items).toEqual([]);
    const badFilter = await call(org.domain, '/api/v1/import?status=done', { token: org.token });
    expect(badFilter.status).toBe(422);
    const one = await call(org.domain, `/api/v1/import/${ok.id}`, { token: org.token });
    expect(((await one.json()) as { data: Import }).data.rejections).toEqual([
      { row: 3, reason: "Invalid email address. Please enter a valid email: 'nope' (column 2, email)" },
    ]);
  });

  it('needs a signed-in user', async () => {
    const org = await newOrg();
    expect((await call(org.domain, '/api/v1/import')).status).toBe(401);
    expect((await call(org.domain, '/api/v1/import/upload?file_name=a.csv', { method: 'POST', body: 'a' })).status).toBe(401);
  });
});

describe('tagging every imported contact', () => {
  const tagOf = async (orgId: number, name: string) =>
    (await env.DB.prepare('INSERT INTO tags (org_id, name, priority) VALUES (?, ?, 1) RETURNING id').bind(orgId, name).first<{ id: number }>())!.id;
  const tagsOf = async (orgId: number) =>
    (
      await env.DB.prepare(
        'SELECT c.name AS contact, t.name AS tag FROM contact_tags ct JOIN contacts c ON c.id = ct.contact_id JOIN tags t ON t.id = ct.tag_id WHERE ct.org_id = ? ORDER BY c.name, t.name',
      )
        .bind(orgId)
        .all<{ contact: string; tag: string }>()
    ).results;

  it('gives each contact, new or updated, the chosen tags besides those of its row, and a repeat changes nothing', async () => {
    const org = await newOrg();
    const [fair, spring] = [await tagOf(org.orgId, 'Fair 2026'), await tagOf(org.orgId, 'Spring')];
    await importCsv(org, 'name,email\nAnn,ann@x.io\n', { mapping: [...nameEmail] });
    const done = await importCsv(org, 'name,email,tags\nAnn,ann@x.io,\nBob,bob@x.io,VIP\n', {
      mapping: [...nameEmail, { column: 2, target: 'tags' }],
      tag_ids: [fair, spring, fair],
    });
    expect(done).toMatchObject({ status: 'success', created_count: 1, updated_count: 1, tag_ids: [fair, spring] });
    expect(await tagsOf(org.orgId)).toEqual([
      { contact: 'Ann', tag: 'Fair 2026' },
      { contact: 'Ann', tag: 'Spring' },
      { contact: 'Bob', tag: 'Fair 2026' },
      { contact: 'Bob', tag: 'Spring' },
      { contact: 'Bob', tag: 'VIP' },
    ]);
  });

  it("refuses another organisation's tag, or one that does not exist, with the field's message, and starts nothing", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const theirs = await tagOf(other.orgId, 'Theirs');
    for (const tag_ids of [[theirs], [987654]]) {
      const fields = await fieldsOf422(await start(org, 'name,email\nAnn,a@x.io\n', { mapping: [...nameEmail], tag_ids }));
      expect(fields.tag_ids).toEqual([IMPORT_MESSAGES.unknownTags]);
    }
    expect(((await start(org, 'name,email\nAnn,a@x.io\n', { mapping: [...nameEmail], tag_ids: ['x'] })) as Response).status).toBe(422);
    const list = await call(org.domain, '/api/v1/import', { token: org.token });
    expect(((await list.json()) as { meta: { total: number } }).meta.total).toBe(0);
    expect(await tagsOf(other.orgId)).toEqual([]);
  });
});
