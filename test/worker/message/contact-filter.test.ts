import { describe, expect, it } from 'vitest';
import { newOrg, type Org } from '../channel-helpers';
import { ledgerSql } from '../helpers';

// GET /message?contact_id=: the contact's page lists the contact's own latest messages.

async function insertMessage(o: Org, contactId: number | null, to: string) {
  const row = await (await ledgerSql(o.orgId))
    .prepare('INSERT INTO messages (org_id, type, status, contact_id, from_address, to_address, subject, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id')
    .bind(o.orgId, 'email', 'sent', contactId, 'hello@acme.test', to, 'S', 'Body')
    .first<{ id: number }>();
  return row!.id;
}

describe('GET /message?contact_id=', () => {
  it("lists only that contact's messages, newest first", async () => {
    const o = await newOrg();
    const first = await insertMessage(o, 7, 'ann@example.com');
    await insertMessage(o, 8, 'bob@example.com');
    await insertMessage(o, null, 'test@example.com');
    const second = await insertMessage(o, 7, 'ann@example.com');
    const res = await o.api('GET', '/message?contact_id=7');
    expect(res.status).toBe(200);
    expect(res.body.items.map((m: { id: number }) => m.id)).toEqual([second, first]);
    expect(res.body.meta.total).toBe(2);
  });

  it('answers a bad contact_id with a 422 naming the field', async () => {
    const o = await newOrg();
    const res = await o.api('GET', '/message?contact_id=abc');
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('contact_id must be a contact id');
  });

  it("never lists another organisation's messages for the same contact id", async () => {
    const a = await newOrg('cfa');
    const b = await newOrg('cfb');
    await insertMessage(b, 7, 'secret@example.com');
    expect((await a.api('GET', '/message?contact_id=7')).body.meta.total).toBe(0);
  });
});
