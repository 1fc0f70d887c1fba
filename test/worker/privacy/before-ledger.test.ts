// A person's messages made before the ledger that the cron has not moved out of D1 yet (src/modules/ledger/move.ts):
// an export shows them and an erasure erases them, as it does their messages in the ledger. Another person's D1
// messages stay where they are, for the cron.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ERASED_ADDRESS } from '../../../src/modules/privacy/erase/erased-message';
import { insertContact, newOrg, type Org } from '../channel-helpers';
import { call, ledgerSql } from '../helpers';

/** A message straight into D1, as they were made before the ledger; answers its id. */
async function d1Message(orgId: number, contactId: number | null, to: string, subject: string): Promise<number> {
  const row = await env.DB.prepare(
    `INSERT INTO messages (org_id, type, status, contact_id, from_address, to_address, subject, body, sent_at, opens_total)
     VALUES (?, 'email', 'sent', ?, 'news@acme.test', ?, ?, '<p>old</p>', '2026-10-01T10:00:00.000Z', 1) RETURNING id`,
  )
    .bind(orgId, contactId, to, subject)
    .first<{ id: number }>();
  await env.DB.prepare(
    `INSERT INTO tracking_events (id, org_id, message_id, kind, class, reason, method, at) VALUES (?, ?, ?, 'open', 'human', 'ok', 'GET', '2026-10-01T11:00:00.000Z')`,
  )
    .bind(`before-ledger-${row!.id}`, orgId, row!.id)
    .run();
  return row!.id;
}

const inD1 = async (orgId: number) =>
  (await env.DB.prepare('SELECT id FROM messages WHERE org_id = ? ORDER BY id').bind(orgId).all<{ id: number }>()).results.map((r) => r.id);

/** Ada with a D1 message by her contact and one to her address alone (the send API's kind); Bob with one of his own. */
async function fixture(prefix: string) {
  const o: Org = await newOrg(prefix);
  const ada = await insertContact(o.orgId, 'Ada Old', [{ type: 'email', value: 'ada@old.test' }]);
  const bob = await insertContact(o.orgId, 'Bob Old', [{ type: 'email', value: 'bob@old.test' }]);
  const ids = {
    own: await d1Message(o.orgId, ada, 'ada@old.test', 'Old news for Ada'),
    bare: await d1Message(o.orgId, null, 'ADA@old.test', 'Old receipt'),
    bob: await d1Message(o.orgId, bob, 'bob@old.test', 'Old news for Bob'),
  };
  return { o, ada, ids };
}

describe("a person's messages still in D1 from before the ledger", () => {
  it('are in their export, with their events; the move takes only theirs', async () => {
    const { o, ada, ids } = await fixture('bl');
    const res = await call(o.org, `/api/v1/contact/${ada}/export?format=json`, { token: o.token });
    expect(res.status).toBe(200);
    const doc = JSON.parse(await res.text());
    expect(doc.messages.map((m: { id: number }) => m.id)).toEqual([ids.own, ids.bare]);
    expect(doc.messages[0]).toMatchObject({ subject: 'Old news for Ada', events: [expect.objectContaining({ kind: 'open' })] });
    expect(JSON.stringify(doc)).not.toContain('Bob');
    expect(await inD1(o.orgId)).toEqual([ids.bob]);
  });

  it('are erased with the person, and the other person keeps theirs', async () => {
    const { o, ada, ids } = await fixture('bm');
    const res = await o.api('POST', `/contact/${ada}/erase`, { confirm: 'ada@old.test' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.messages).toBe(2);
    expect(await inD1(o.orgId)).toEqual([ids.bob]);
    const ledger = await ledgerSql(o.orgId);
    const rows = (await ledger.prepare('SELECT id, to_address, subject FROM messages ORDER BY id').all<{ id: number; to_address: string; subject: string }>())
      .results;
    expect(rows.map((r) => r.id)).toEqual([ids.own, ids.bare]);
    for (const row of rows) expect(row.to_address).toBe(ERASED_ADDRESS);
    expect(JSON.stringify(rows)).not.toMatch(/ada|Old news|receipt/i);
    // Bob's message is whole, in D1 until the cron moves it.
    expect(await env.DB.prepare('SELECT to_address, subject FROM messages WHERE id = ?').bind(ids.bob).first()).toEqual({
      to_address: 'bob@old.test',
      subject: 'Old news for Bob',
    });
  });
});
