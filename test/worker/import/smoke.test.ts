import { describe, expect, it } from 'vitest';
import { createField, importCsv, newOrg, storedContacts } from './support';

describe('smoke', () => {
  it('imports', async () => {
    const org = await newOrg();
    const vip = await createField(org.orgId, 'VIP', 'boolean');
    const plan = await createField(org.orgId, 'Plan', 'select', ['gold']);
    const csv = 'name,email,vip,plan,tags\nAnn,ann@x.com,yes,gold,"a;b"\nBob,BOB@x.com,no,silver,b\n';
    const result = await importCsv(org, csv, {
      skip_first_line: true,
      mapping: [
        { column: 0, target: 'name' },
        { column: 1, target: 'address', address_type: 'email' },
        { column: 2, target: 'field', field_id: vip },
        { column: 3, target: 'field', field_id: plan },
        { column: 4, target: 'tags' },
      ],
    });
    console.log(result);
    console.log(JSON.stringify(await storedContacts(org.orgId)));
    expect(result.status).toBe('success');
  });
});
