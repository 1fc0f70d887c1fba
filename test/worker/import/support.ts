import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Import, ImportCreateInput } from '../../../src/shared/contracts/import';
import { call, createOrg, signIn } from '../helpers';

// Helpers of the import tests: an organisation with a signed-in user, uploads, starting an import, waiting
// for the real queue consumer to finish it, and reading back what was stored.

let counter = 0;

export interface Org {
  domain: string;
  orgId: number;
  token: string;
}

/** A fresh organisation (storage is shared by the tests of a file) with a signed-in user. */
export async function newOrg(prefix = 'imp'): Promise<Org> {
  const domain = `${prefix}${++counter}${Math.random().toString(36).slice(2, 6)}`;
  const { orgId, username } = await createOrg(domain);
  const { access_token } = await signIn(domain, username);
  return { domain, orgId, token: access_token };
}

/** POST /import/upload with the file as the raw body. */
export function uploadRaw(org: Org, body: BodyInit | null, fileName = 'contacts.csv', headers: Record<string, string> = {}) {
  return call(org.domain, `/api/v1/import/upload?file_name=${encodeURIComponent(fileName)}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/csv', ...headers },
    token: org.token,
  });
}

/** Uploads a CSV and returns its file_key. */
export async function upload(org: Org, csv: string | Uint8Array, fileName = 'contacts.csv'): Promise<string> {
  const res = await uploadRaw(org, csv, fileName);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { data: { file_key: string } }).data.file_key;
}

/** POST /import. */
export function startImport(org: Org, body: Partial<ImportCreateInput> & Record<string, unknown>) {
  return call(org.domain, '/api/v1/import', { method: 'POST', json: body, token: org.token });
}

export async function getImport(org: Org, id: number): Promise<Import> {
  const res = await call(org.domain, `/api/v1/import/${id}`, { token: org.token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Import }).data;
}

/** Polls GET /import/:id until the queue consumer finished the import. */
export async function waitForImport(org: Org, id: number, timeoutMs = 15_000): Promise<Import> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const item = await getImport(org, id);
    if (item.status === 'success' || item.status === 'fail') return item;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${item.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Uploads, starts and waits: the whole pipeline through the API and the real queue. */
export async function importCsv(org: Org, csv: string | Uint8Array, input: Omit<ImportCreateInput, 'file_key' | 'file_name'>): Promise<Import> {
  const fileKey = await upload(org, csv);
  const res = await startImport(org, { file_key: fileKey, file_name: 'contacts.csv', ...input });
  expect(res.status, await res.clone().text()).toBe(201);
  const { data } = (await res.json()) as { data: Import };
  return waitForImport(org, data.id);
}

/** A custom field created straight in D1 (the field API is not what these tests are about). */
export async function createField(orgId: number, name: string, type: string, options: string[] = []): Promise<number> {
  const alias = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}_${Math.random().toString(36).slice(2, 6)}`;
  const field = await env.DB.prepare('INSERT INTO fields (org_id, name, alias, type) VALUES (?, ?, ?, ?) RETURNING id')
    .bind(orgId, name, alias, type)
    .first<{ id: number }>();
  for (const [i, value] of options.entries()) {
    await env.DB.prepare('INSERT INTO field_options (org_id, field_id, value, position) VALUES (?, ?, ?, ?)').bind(orgId, field!.id, value, i).run();
  }
  return field!.id;
}

export interface StoredContact {
  id: number;
  name: string;
  note: string | null;
  addresses: string[];
  tags: string[];
  attributes: Record<string, (string | number)[]>;
}

/** Every contact of the organisation as stored, ordered by id; attributes by field name (options by value). */
export async function storedContacts(orgId: number): Promise<StoredContact[]> {
  const contacts = await env.DB.prepare('SELECT id, name, note FROM contacts WHERE org_id = ? ORDER BY id')
    .bind(orgId)
    .all<{ id: number; name: string; note: string | null }>();
  const addresses = await env.DB.prepare('SELECT contact_id, type, value FROM contact_addresses WHERE org_id = ? ORDER BY contact_id, position')
    .bind(orgId)
    .all<{ contact_id: number; type: string; value: string }>();
  const tags = await env.DB.prepare('SELECT ct.contact_id, t.name FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.org_id = ? ORDER BY t.name')
    .bind(orgId)
    .all<{ contact_id: number; name: string }>();
  const attributes = await env.DB.prepare(
    `SELECT a.contact_id, f.name, a.value_text, a.value_number, o.value AS option_value
     FROM contact_attributes a JOIN fields f ON f.id = a.field_id LEFT JOIN field_options o ON o.id = a.option_id
     WHERE a.org_id = ? ORDER BY a.id`,
  )
    .bind(orgId)
    .all<{ contact_id: number; name: string; value_text: string | null; value_number: number | null; option_value: string | null }>();
  return contacts.results.map((c) => {
    const attrs: Record<string, (string | number)[]> = {};
    for (const a of attributes.results.filter((a) => a.contact_id === c.id)) {
      (attrs[a.name] ??= []).push(a.option_value ?? a.value_text ?? (a.value_number as number));
    }
    return {
      ...c,
      addresses: addresses.results.filter((a) => a.contact_id === c.id).map((a) => `${a.type}:${a.value}`),
      tags: tags.results.filter((t) => t.contact_id === c.id).map((t) => t.name),
      attributes: attrs,
    };
  });
}

/** An import row created straight in D1 for an uploaded key (nothing queued): the job is then run by the test. */
export async function createImportRow(org: Org, fileKey: string, mapping: unknown, skipFirstLine = true): Promise<number> {
  const head = await env.FILES.head(fileKey);
  const row = await env.DB.prepare(
    `INSERT INTO imports (org_id, file_name, file_key, file_size, skip_first_line, mapping) VALUES (?, 'direct.csv', ?, ?, ?, ?) RETURNING id`,
  )
    .bind(org.orgId, fileKey, head?.size ?? 0, skipFirstLine ? 1 : 0, JSON.stringify(mapping))
    .first<{ id: number }>();
  return row!.id;
}
