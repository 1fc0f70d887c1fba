import { describe, expect, it } from 'vitest';
import { newOrg, type Org } from '../channel-helpers';
import { ledgerSql } from '../helpers';

// A message's kind (issue 36): a broadcast's recipient, a test message sent from the console, or a transactional
// message sent through POST /send. GET /message?kind= lists one kind (the console's Kind filter), the bulk delete
// takes the same filter, and every message answers its kind and a transactional message's own fields. Rows are
// written into the ledger as POST /send leaves them (api_key_id, metadata, send_options as JSON).

type Row = {
  to: string;
  type?: 'email' | 'sms';
  broadcastId?: number;
  isTest?: boolean;
  apiKeyId?: number;
  metadata?: Record<string, string>;
  sendOptions?: Record<string, unknown>;
};

async function insertMessage(o: Org, row: Row) {
  const r = await (await ledgerSql(o.orgId))
    .prepare(
      `INSERT INTO messages (org_id, type, status, broadcast_id, is_test, api_key_id, metadata, send_options, from_address, to_address, subject, body)
       VALUES (?, ?, 'sent', ?, ?, ?, ?, ?, 'hello@acme.test', ?, 'S', 'Body') RETURNING id`,
    )
    .bind(
      o.orgId,
      row.type ?? 'email',
      row.broadcastId ?? null,
      row.isTest ? 1 : 0,
      row.apiKeyId ?? null,
      row.metadata ? JSON.stringify(row.metadata) : null,
      row.sendOptions ? JSON.stringify(row.sendOptions) : null,
      row.to,
    )
    .first<{ id: number }>();
  return r!.id;
}

type Listed = { items: Record<string, unknown>[]; meta: { total: number } };
const ids = (body: Listed) => body.items.map((m) => m.id);

/** One message of each kind, and a second transactional one: an SMS sent with a test key. */
async function messagesOfEachKind(o: Org) {
  const broadcast = await insertMessage(o, { to: 'ann@example.com', broadcastId: 41 });
  const test = await insertMessage(o, { to: 'me@acme.test', isTest: true });
  const reset = await insertMessage(o, {
    to: 'cat@example.com',
    apiKeyId: 7,
    metadata: { user_id: 'u-829', flow: 'password-reset' },
    sendOptions: { cc: ['support@acme.test'], bcc: ['archive@acme.test'], replyTo: 'help@acme.test', subscriptionId: 3, headers: { 'X-Flow': 'reset' } },
  });
  const code = await insertMessage(o, { to: '+15550000001', type: 'sms', apiKeyId: 8, sendOptions: { sandbox: true } });
  return { broadcast, test, reset, code };
}

describe('GET /message?kind=', () => {
  it('lists only the messages of that kind, newest first, and with the other filters', async () => {
    const o = await newOrg('mk');
    const m = await messagesOfEachKind(o);
    const list = async (query: string) => (await o.api('GET', `/message${query}`)).body as Listed;
    expect(ids(await list('?kind=transactional'))).toEqual([m.code, m.reset]);
    expect(ids(await list('?kind=test'))).toEqual([m.test]);
    expect(ids(await list('?kind=broadcast'))).toEqual([m.broadcast]);
    expect(ids(await list(''))).toEqual([m.code, m.reset, m.test, m.broadcast]);
    expect(ids(await list('?kind=transactional&type=sms'))).toEqual([m.code]);
    expect((await list('?kind=transactional&type=email')).meta.total).toBe(1);
    expect((await list('?kind=test&type=sms')).meta.total).toBe(0);
    // Each row says its kind, the same rule as the filter.
    expect((await list('')).items.map((i) => [i.id, i.kind])).toEqual([
      [m.code, 'transactional'],
      [m.reset, 'transactional'],
      [m.test, 'test'],
      [m.broadcast, 'broadcast'],
    ]);
  });

  it('answers a kind it does not know with a 422 naming the field, not an empty list', async () => {
    const o = await newOrg('mk');
    const res = await o.api('GET', '/message?kind=marketing');
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('kind must be broadcast, test or transactional');
  });

  it('deletes in bulk by kind: all test messages, nothing else', async () => {
    const o = await newOrg('mk');
    const m = await messagesOfEachKind(o);
    await insertMessage(o, { to: 'me2@acme.test', isTest: true });
    expect((await o.api('DELETE', '/message', { all: true, kind: 'test' })).body).toEqual({ data: { deleted: 2, more: false } });
    expect(ids((await o.api('GET', '/message')).body as Listed)).toEqual([m.code, m.reset, m.broadcast]);
  });

  it("never lists another organisation's transactional messages", async () => {
    const a = await newOrg('mka');
    const b = await newOrg('mkb');
    await messagesOfEachKind(b);
    expect(((await a.api('GET', '/message?kind=transactional')).body as Listed).meta.total).toBe(0);
  });
});

describe("a transactional message's fields", () => {
  it('presents the key, metadata, cc, bcc, reply-to, category and sandbox, in the list and on its own', async () => {
    const o = await newOrg('mf');
    const m = await messagesOfEachKind(o);
    const expected = {
      id: m.reset,
      kind: 'transactional',
      is_test: false,
      broadcast_id: null,
      api_key_id: 7,
      metadata: { user_id: 'u-829', flow: 'password-reset' },
      cc: ['support@acme.test'],
      bcc: ['archive@acme.test'],
      reply_to: 'help@acme.test',
      subscription_id: 3,
      sandbox: false,
    };
    const listed = ((await o.api('GET', '/message?kind=transactional')).body as Listed).items;
    expect(listed.find((i) => i.id === m.reset)).toMatchObject(expected);
    const one = await o.api('GET', `/message/${m.reset}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ ...expected, body: 'Body' });
    // How it went out stays inside: the stored headers are not part of the answer.
    expect(JSON.stringify(one.body)).not.toContain('X-Flow');

    // Sent with a test key: sandbox, and only what it has (no copies, no reply-to, no category, no metadata).
    expect((await o.api('GET', `/message/${m.code}`)).body.data).toMatchObject({
      kind: 'transactional',
      type: 'sms',
      api_key_id: 8,
      sandbox: true,
      metadata: null,
      cc: [],
      bcc: [],
      reply_to: null,
      subscription_id: null,
    });
  });

  it("presents a broadcast's and a test message's as empty", async () => {
    const o = await newOrg('mf');
    const m = await messagesOfEachKind(o);
    const items = ((await o.api('GET', '/message')).body as Listed).items;
    const empty = { api_key_id: null, metadata: null, cc: [], bcc: [], reply_to: null, subscription_id: null, sandbox: false };
    expect(items.find((i) => i.id === m.broadcast)).toMatchObject({ kind: 'broadcast', broadcast_id: 41, ...empty });
    expect(items.find((i) => i.id === m.test)).toMatchObject({ kind: 'test', is_test: true, ...empty });
  });
});
