import { describe, expect, it } from 'vitest';
import { newOrg, type Org } from '../channel-helpers';
import { ledgerSql } from '../helpers';

async function insertMessage(o: Org, values: { type?: string; status?: string; to?: string; subject?: string; created?: string; body?: string }) {
  // Messages are kept in the organisation's ledger (src/modules/ledger).
  const r = await (await ledgerSql(o.orgId))
    .prepare('INSERT INTO messages (org_id, type, status, from_address, to_address, subject, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id')
    .bind(
      o.orgId,
      values.type ?? 'email',
      values.status ?? 'sent',
      'hello@acme.test',
      values.to ?? 'to@example.com',
      values.subject ?? 'S',
      values.body ?? 'Body',
      values.created ?? new Date().toISOString(),
    )
    .first<{ id: number }>();
  return r!.id;
}

describe('messages', () => {
  it('lists newest first without bodies, filters by status and type, searches, and reads one with its body', async () => {
    const o = await newOrg();
    const old = await insertMessage(o, { to: 'old@example.com', created: '2026-01-01T00:00:00.000Z' });
    const failed = await insertMessage(o, { status: 'failed', to: 'fail@example.com', created: '2026-02-01T00:00:00.000Z' });
    const sms = await insertMessage(o, { type: 'sms', status: 'queued', to: '+15550001', subject: undefined, created: '2026-03-01T00:00:00.000Z' });
    const sending = await insertMessage(o, { status: 'sending', to: 'busy@example.com', created: '2026-04-01T00:00:00.000Z' });

    let res = await o.api('GET', '/message');
    expect(res.body.items.map((m: { id: number }) => m.id)).toEqual([sending, sms, failed, old]);
    expect(res.body.items[0].body).toBeUndefined();
    // A message being sent right now is still queued to the user.
    expect(res.body.items[0].status).toBe('queued');
    res = await o.api('GET', '/message?status=queued');
    expect(res.body.items.map((m: { id: number }) => m.id)).toEqual([sending, sms]);
    res = await o.api('GET', '/message?status=failed');
    expect(res.body.items.map((m: { id: number }) => m.id)).toEqual([failed]);
    res = await o.api('GET', '/message?type=sms');
    expect(res.body.items.map((m: { id: number }) => m.id)).toEqual([sms]);
    res = await o.api('GET', '/message?search=old@');
    expect(res.body.items.map((m: { id: number }) => m.id)).toEqual([old]);
    res = await o.api('GET', '/message?sort_by=created_at&sort_order=asc');
    expect(res.body.items[0].id).toBe(old);
    expect((await o.api('GET', '/message?status=bogus')).status).toBe(422);

    res = await o.api('GET', `/message/${old}`);
    expect(res.body.data).toMatchObject({ id: old, body: 'Body', to_address: 'old@example.com', status: 'sent' });
  });

  it('deletes one and in bulk, and cannot be created or edited', async () => {
    const o = await newOrg();
    const a = await insertMessage(o, {});
    await insertMessage(o, { status: 'failed' });
    await insertMessage(o, { status: 'failed' });
    expect((await o.api('POST', '/message', { to_address: 'x' })).status).toBe(404);
    expect((await o.api('PUT', `/message/${a}`, { subject: 'x' })).status).toBe(404);
    expect((await o.api('DELETE', `/message/${a}`)).body).toEqual({ data: { deleted: 1 } });
    expect((await o.api('DELETE', '/message', { all: true, status: 'failed' })).body).toEqual({ data: { deleted: 2, more: false } });
    expect((await o.api('GET', '/message')).body.meta.total).toBe(0);
  });
});

describe('organisation A cannot reach organisation B messages', () => {
  it('cannot list, read, delete or bulk-delete them', async () => {
    const a = await newOrg('ma');
    const b = await newOrg('mb');
    const bm = await insertMessage(b, { body: 'B secret body' });
    expect((await a.api('GET', `/message?ids=${bm}`)).body.meta.total).toBe(0);
    const res = await a.api('GET', `/message/${bm}`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('B secret body');
    expect((await a.api('DELETE', `/message/${bm}`)).status).toBe(404);
    expect((await a.api('DELETE', '/message', { ids: [bm] })).body.data.deleted).toBe(0);
    expect((await a.api('DELETE', '/message', { all: true })).body.data.deleted).toBe(0);
    expect((await b.api('GET', `/message/${bm}`)).body.data.body).toBe('B secret body');
  });
});
