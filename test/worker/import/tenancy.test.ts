import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { Import } from '../../../src/shared/contracts/import';
import { call } from '../helpers';
import { importCsv, newOrg, startImport, upload } from './support';

const mapping = [
  { column: 0, target: 'name' },
  { column: 1, target: 'address', address_type: 'email' },
] as const;

describe('import tenancy', () => {
  it("cannot start an import of another organisation's file, nor read or list its imports", async () => {
    const a = await newOrg('ta');
    const b = await newOrg('tb');
    const aKey = await upload(a, 'name,email\nAnn,ann@a.io\n');
    const aImport = await importCsv(a, 'name,email\nAnn,ann@a.io\n', { skip_first_line: true, mapping: [...mapping] });

    // A's key from B: the same answer as a key that does not exist.
    const stolen = await startImport(b, { file_key: aKey, file_name: 'x.csv', mapping: [...mapping] });
    const missing = await startImport(b, { file_key: `orgs/${b.orgId}/imports/${crypto.randomUUID()}.csv`, file_name: 'x.csv', mapping: [...mapping] });
    expect(stolen.status).toBe(422);
    expect(await stolen.json()).toMatchObject({ error: { fields: { file_key: ['The uploaded file was not found. Upload it again.'] } } });
    expect(missing.status).toBe(422);
    const forged = await startImport(b, { file_key: `orgs/${b.orgId}/imports/../../${a.orgId}/x.csv`, file_name: 'x.csv', mapping: [...mapping] });
    expect(forged.status).toBe(422);

    expect((await call(b.domain, `/api/v1/import/${aImport.id}`, { token: b.token })).status).toBe(404);
    const list = (await (await call(b.domain, '/api/v1/import', { token: b.token })).json()) as { items: Import[] };
    expect(list.items).toEqual([]);
    const byIds = (await (await call(b.domain, `/api/v1/import?ids=${aImport.id}`, { token: b.token })).json()) as { items: Import[] };
    expect(byIds.items).toEqual([]);
    // Contacts went to A only.
    const counts = await env.DB.prepare('SELECT org_id, COUNT(*) AS n FROM contacts WHERE org_id IN (?, ?) GROUP BY org_id').bind(a.orgId, b.orgId).all();
    expect(counts.results).toEqual([{ org_id: a.orgId, n: 1 }]);
    // B's token on A's host is refused outright.
    expect((await call(a.domain, `/api/v1/import/${aImport.id}`, { token: b.token })).status).toBe(401);
  });

  it('keeps imports of the same addresses apart per organisation', async () => {
    const a = await newOrg('ta');
    const b = await newOrg('tb');
    const csv = 'name,email\nAnn,ann@same.io\n';
    expect(await importCsv(a, csv, { skip_first_line: true, mapping: [...mapping] })).toMatchObject({ created_count: 1 });
    expect(await importCsv(b, csv, { skip_first_line: true, mapping: [...mapping] })).toMatchObject({ created_count: 1, updated_count: 0 });
  });
});
