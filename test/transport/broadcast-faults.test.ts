// Broadcasts under faults, against real SMTP servers on loopback (test/support/transport-servers.ts): the
// BroadcastRunner's alarm walks the recipients and fills the send queue (recorded here, so each test decides
// how its messages are delivered: once, twice, at once, after a crash), the real consumer sends over our SMTP
// transport, and every assertion is on what the server really received, by Message-ID.
import { applyD1Migrations, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastRunner } from '../../src/modules/broadcast/runner';
import { createDb } from '../../src/db/client';
import type { Env } from '../../src/env';
import { currentBroadcast, writeRecipientPage } from '../../src/modules/broadcast/run-store';
import { orgLedgerDb } from '../../src/modules/ledger/registry';
import { sealSecret } from '../../src/modules/integration/account';
import { SendChannels } from '../../src/modules/sending/channels';
import { deliverBatch, type DeliverFaults } from '../../src/modules/sending/deliver-batch';
import type { SendBatchBody } from '../../src/modules/sending/send-queue';
import { NOT_SET_UP, received, S, uniqueAddress } from '../support/transport-helpers';

const E = env as unknown as Env;
let orgSeq = 0;

type Row = Record<string, unknown>;
const one = (sql: string, ...args: unknown[]) =>
  E.DB.prepare(sql)
    .bind(...args)
    .first<Row>();
const insert = async (sql: string, ...args: unknown[]) => Number((await one(`${sql} RETURNING id`, ...args))!.id);
/** The organisation's ledger (src/modules/ledger), where its messages and its started broadcast's state are. */
const ledgerOf = async (s: Setup) => (await orgLedgerDb(E, createDb(E.DB), s.orgId))!;
const inLedger = async (s: Setup, sql: string, ...args: unknown[]) =>
  (await ledgerOf(s)).$client
    .prepare(sql)
    .bind(...args)
    .first<Row>();

interface Setup {
  orgId: number;
  broadcastId: number;
  addresses: string[];
}

/** An organisation with an smtp integration on `port`, a sender, a template, tagged contacts, and a queued broadcast to the tag. */
async function setup(port: number, locals: string[]): Promise<Setup> {
  const n = ++orgSeq;
  const orgId = await insert('INSERT INTO organizations (name, domain) VALUES (?, ?)', `Fault ${n}`, `fault${n}-${Date.now().toString(36)}`);
  const details = JSON.stringify({ server: '127.0.0.1', port, ssl: false, tls: false, domain: 'faults.test', return_path: null, user: null });
  const integrationId = await insert(
    "INSERT INTO integrations (org_id, name, type, details, secret) VALUES (?, 'Test SMTP', 'smtp', ?, ?)",
    orgId,
    details,
    await sealSecret(E, 'smtp', 'unused'),
  );
  const senderId = await insert(
    "INSERT INTO senders (org_id, integration_id, type, value, name) VALUES (?, ?, 'email', 'news@faults.test', 'Fault News')",
    orgId,
    integrationId,
  );
  const templateId = await insert(
    "INSERT INTO templates (org_id, type, name, subject, body) VALUES (?, 'email', 'T', 'Hi {{ contact.name }}', '<p>Hello {{ contact.name }}</p>')",
    orgId,
  );
  const tagId = await insert("INSERT INTO tags (org_id, name) VALUES (?, 'Everyone')", orgId);
  const addresses: string[] = [];
  for (const [i, local] of locals.entries()) {
    const address = uniqueAddress(local);
    addresses.push(address);
    const contactId = await insert('INSERT INTO contacts (org_id, name) VALUES (?, ?)', orgId, `Person ${i}`);
    await insert("INSERT INTO contact_addresses (org_id, contact_id, type, value) VALUES (?, ?, 'email', ?)", orgId, contactId, address);
    await E.DB.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)').bind(orgId, contactId, tagId).run();
  }
  const broadcastId = await insert(
    "INSERT INTO broadcasts (org_id, name, type, status, sender_id, template_id, do_not_unsubscribe, contacts) VALUES (?, 'Faults', 'email', 'queued', ?, ?, 1, ?)",
    orgId,
    senderId,
    templateId,
    JSON.stringify({ filter: { tags: [tagId] } }),
  );
  return { orgId, broadcastId, addresses };
}

/**
 * Runs the broadcast's runner alarm `times` times (a restart makes it fire again) with the send queue recorded;
 * `forget` wipes its own storage of what it already dispatched before each run, as a restart that lost it would.
 */
async function runAlarm(s: Setup, times = 1, forget = false): Promise<SendBatchBody[]> {
  const queued: SendBatchBody[] = [];
  const queue = { sendBatch: async (batch: { body: SendBatchBody }[]) => void queued.push(...batch.map((m) => m.body)) } as unknown as Queue;
  const stub = E.BROADCAST.get(E.BROADCAST.idFromName(String(s.broadcastId)));
  await runInDurableObject(stub, async (instance: BroadcastRunner, state) => {
    (instance as unknown as { env: Env }).env = { ...E, SEND_QUEUE: queue } as Env;
    await state.storage.put('ref', { orgId: s.orgId, broadcastId: s.broadcastId });
    for (let i = 0; i < times; i++) {
      if (forget) await state.storage.delete('dispatched');
      await instance.alarm();
    }
    await state.storage.deleteAlarm();
  });
  return queued;
}

/** Delivers one queue message as the queue would; answers whether it threw (the queue would retry it). */
async function deliver(body: SendBatchBody, attempt = 1, faults: DeliverFaults = {}, deferred: SendBatchBody[] = []): Promise<boolean> {
  const queue = { sendBatch: async (batch: { body: SendBatchBody }[]) => void deferred.push(...batch.map((m) => m.body)) } as unknown as Queue;
  const e = { ...E, SEND_QUEUE: queue } as Env;
  const channels = new SendChannels(e);
  try {
    await deliverBatch(e, body, attempt, channels, faults);
    return false;
  } catch {
    return true;
  } finally {
    await channels.close();
  }
}

/** How many times each address received the broadcast, checked by the Message-ID of its own message row. */
async function receivedCounts(s: Setup): Promise<number[]> {
  const counts: number[] = [];
  for (const address of s.addresses) {
    const message = await inLedger(s, 'SELECT id FROM messages WHERE broadcast_id = ? AND to_address = ?', s.broadcastId, address);
    const mails = await received({ to: address });
    expect(mails.every((m) => m.raw.includes(`Message-ID: <relay-${message!.id}@faults.test>`))).toBe(true);
    counts.push(mails.length);
  }
  return counts;
}

/** The broadcast as the console sees it: D1's row with its ledger's status and counters once started. */
const broadcast = async (s: Setup) => (await currentBroadcast(createDb(E.DB), () => ledgerOf(s), s.orgId, s.broadcastId))!;
const everyoneOnce = (s: Setup) => s.addresses.map(() => 1);

describe.skipIf(NOT_SET_UP)('broadcast faults against a real SMTP server', () => {
  beforeAll(async () => {
    await applyD1Migrations(E.DB, (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS);
  });

  it('(a) the consumer throws after sending half a batch: the redelivery sends only the other half', async () => {
    const s = await setup(S.smtp.open, ['a', 'a', 'a', 'a', 'a', 'a']);
    const [body, ...rest] = await runAlarm(s);
    expect(rest).toEqual([]);
    expect(body.ids).toHaveLength(6);
    let crashed = false;
    const faults: DeliverFaults = {
      chunkSize: 3,
      afterChunk: () => {
        if (!crashed) {
          crashed = true;
          throw new Error('worker crashed');
        }
      },
    };
    expect(await deliver(body, 1, faults)).toBe(true);
    expect((await receivedCounts(s)).reduce((a, b) => a + b)).toBe(3);
    expect(await deliver(body, 2)).toBe(false);
    expect(await receivedCounts(s)).toEqual(everyoneOnce(s));
    expect(await broadcast(s)).toMatchObject({ status: 'finished', total: 6, sent: 6, failed: 0, skipped: 0 });
  });

  it('(b) a queue message delivered twice, and twice at the same time, sends each message once', async () => {
    const s = await setup(S.smtp.open, ['b', 'b', 'b', 'b']);
    const [body] = await runAlarm(s);
    await Promise.all([deliver(body), deliver(body)]);
    await deliver(body, 2);
    expect(await receivedCounts(s)).toEqual(everyoneOnce(s));
    expect(await broadcast(s)).toMatchObject({ status: 'finished', total: 4, sent: 4 });
  });

  it('(c) the runner restarts mid-run and its alarm fires again: no second message row, no second mail', async () => {
    const s = await setup(S.smtp.open, ['c', 'c', 'c', 'c', 'c']);
    const before = await broadcast(s);
    // Fired three times, forgetting each time what it had dispatched: the same ids go on the queue three times.
    const bodies = await runAlarm(s, 3, true);
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    // A page walked again from a stale cursor (the object died before it saw its write) adds nothing.
    const started = await broadcast(s);
    await writeRecipientPage(createDb(E.DB), await ledgerOf(s), { ...started, cursor: before.cursor }, 1000);
    const rows = await inLedger(s, 'SELECT count(*) AS n FROM messages WHERE broadcast_id = ?', s.broadcastId);
    expect(rows!.n).toBe(5);
    for (const body of bodies) await deliver(body);
    expect(await receivedCounts(s)).toEqual(everyoneOnce(s));
    expect(await broadcast(s)).toMatchObject({ status: 'finished', total: 5, sent: 5, failed: 0, skipped: 0 });
  });

  it('(d) the server drops the connection mid-batch: the transport reconnects and nobody is missed or doubled', async () => {
    // closeAfterFirst takes one message per connection, then answers 421 and hangs up.
    const s = await setup(S.scripted.closeAfterFirst, ['d', 'd', 'd', 'd']);
    const [body] = await runAlarm(s);
    const deferred: SendBatchBody[] = [];
    for (let attempt = 1; attempt <= 6 && (await broadcast(s)).status === 'sending'; attempt++) {
      await deliver(body, attempt, {}, deferred);
      while (deferred.length) await deliver(deferred.shift()!, attempt, {}, deferred);
    }
    const counts = await Promise.all(s.addresses.map(async (to) => (await received({ to })).length));
    expect(counts).toEqual(everyoneOnce(s));
    expect(await broadcast(s)).toMatchObject({ status: 'finished', total: 4, sent: 4, failed: 0 });
  });

  it('(e) "try later" (421, 451) is retried later instead of failing, 550 fails those recipients, and the broadcast goes on', async () => {
    const s = await setup(S.smtp.open, ['ok', 'busy421', 'reject5', 'slow451', 'ok', 'reject5']);
    const [body] = await runAlarm(s);
    const deferred: SendBatchBody[] = [];
    await deliver(body, 1, {}, deferred);
    // 451 (a rate limit): the recipient waits on a new, delayed queue message and the integration is held.
    // (421 closes the session: the transport took a new one and delivered it in the same run.)
    const slow = await inLedger(s, "SELECT id, status, attempts FROM messages WHERE broadcast_id = ? AND to_address LIKE 'slow451%'", s.broadcastId);
    expect(slow).toMatchObject({ status: 'queued', attempts: 1 });
    expect(deferred.flatMap((d) => d.ids)).toContain(slow!.id);
    const held = await one('SELECT held_until, throttle_level FROM integrations WHERE org_id = ?', s.orgId);
    expect(Number(held!.held_until)).toBeGreaterThan(Date.now() - 1000);
    expect(held!.throttle_level).toBe(1);
    expect((await broadcast(s)).heldUntil).toBeTruthy();
    while (deferred.length) await deliver(deferred.shift()!, 1, {}, deferred);

    const counts = await Promise.all(s.addresses.map(async (to) => (await received({ to })).length));
    expect(counts).toEqual([1, 1, 0, 1, 1, 0]);
    const failed = await inLedger(s, "SELECT status, error, retryable FROM messages WHERE broadcast_id = ? AND to_address LIKE 'reject5%'", s.broadcastId);
    expect(failed).toMatchObject({ status: 'failed', retryable: 0 });
    expect(String(failed!.error)).toMatch(/550/);
    expect(await broadcast(s)).toMatchObject({ status: 'finished', total: 6, sent: 4, failed: 2, skipped: 0 });
  });
});
