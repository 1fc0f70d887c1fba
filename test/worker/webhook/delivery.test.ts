// The webhook delivery engine end to end (src/modules/webhook): events in a ledger's stream go through the ledger's
// dispatcher, the relay-webhooks queue and its consumer to a real receiver on loopback, signed the Standard Webhooks
// way; failures retry on the schedule (the clock runs 1000 times faster here), 410 and a failing day turn the
// endpoint off, one slow endpoint never holds another's, a lost flight is delivered again, and an organisation's
// endpoints never get another's events.
import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { orgLedger } from '../../../src/modules/ledger/registry';
import { deliverFlight, forgetEndpoints } from '../../../src/modules/webhook/deliver';
import { listDeliveries, replayDelivery } from '../../../src/modules/webhook/deliveries';
import { mirrorEndpoint } from '../../../src/modules/webhook/mirror';
import { newOrg } from '../channel-helpers';
import { ledgerSql, mailsTo } from '../helpers';
import { addEndpoint, addEvent, deliveriesOf, RECEIVER, received, receivedAtLeast, script, uniquePath, waitFor } from './webhook-helpers';

const E = env as unknown as Env;
const db = () => createDb(E.DB);
const verify = (secret: string, request: { headers: Record<string, string>; body: string }) => new Webhook(secret).verify(request.body, request.headers);

describe('a delivery', () => {
  it('reaches the receiver signed (standardwebhooks verifies it), with its envelope and headers, and is marked delivered', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('signed');
    const endpoint = await addEndpoint(o.orgId, path, { headers: { authorization: 'Bearer abc' } });
    const eventId = await addEvent(o.orgId, 'message.sent', { message: { id: 7 } });
    const [request] = await receivedAtLeast(path, 1);
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe('Relay-Webhooks/1');
    expect(request.headers.authorization).toBe('Bearer abc');
    expect(request.headers['webhook-id']).toBe(eventId);
    expect(verify(endpoint.secret, request)).toMatchObject({ id: eventId, type: 'message.sent', version: 1, data: { message: { id: 7 } } });
    // Another secret does not verify it.
    expect(() => verify('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', request)).toThrow();
    const rows = await waitFor(async () => {
      const r = await deliveriesOf(o.orgId, endpoint.id);
      return r[0]?.state === 'delivered' ? r : undefined;
    });
    expect(rows).toMatchObject([{ event_id: eventId, state: 'delivered', attempts: 1, last_status: 200, last_error: null }]);
    const page = await listDeliveries(E, db(), o.orgId, endpoint.id, { limit: 10 });
    expect(page.data).toMatchObject([{ event_id: eventId, event_type: 'message.sent', state: 'delivered', attempts: 1, next_at: null }]);
  });

  it('takes only the types it subscribes to; a batch endpoint gets an array with a batch_ webhook-id', async () => {
    const o = await newOrg('wh');
    const single = uniquePath('types');
    const batched = uniquePath('batch');
    await addEndpoint(o.orgId, single, { eventTypes: ['contact.created'] });
    const batch = await addEndpoint(o.orgId, batched, { batch: true });
    await addEvent(o.orgId, 'message.sent');
    const created = await addEvent(o.orgId, 'contact.created');
    const [request] = await receivedAtLeast(single, 1);
    expect(JSON.parse(request.body).id).toBe(created);
    const batches = await waitFor(async () => {
      const list = await received(batched);
      const events = list.flatMap((r) => JSON.parse(r.body) as { id: string }[]);
      return events.length >= 2 ? list : undefined;
    });
    for (const r of batches) {
      const events = verify(batch.secret, r) as { id: string }[];
      expect(Array.isArray(events)).toBe(true);
      expect(r.headers['webhook-id']).toBe(`batch_${events[0].id}`);
    }
    expect(await received(single)).toHaveLength(1);
  });

  it('signs with both secrets during a rotation, and with the new one only once the overlap ended', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('rotation');
    const old = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
    const endpoint = await addEndpoint(o.orgId, path, { previousSecret: old, previousSecretUntil: new Date(Date.now() + 3_600_000).toISOString() });
    await addEvent(o.orgId);
    const [first] = await receivedAtLeast(path, 1);
    expect(first.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verify(endpoint.secret, first)).toBeTruthy();
    expect(verify(old, first)).toBeTruthy();
    // The overlap ends (24 h by the clock): the old secret no longer verifies.
    await E.DB.prepare('UPDATE webhook_endpoints SET previous_secret_until = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), endpoint.id)
      .run();
    forgetEndpoints();
    await addEvent(o.orgId);
    const [, second] = await receivedAtLeast(path, 2);
    expect(second.headers['webhook-signature'].split(' ')).toHaveLength(1);
    expect(verify(endpoint.secret, second)).toBeTruthy();
    expect(() => verify(old, second)).toThrow();
  });
});

describe('failures', () => {
  it('retry on the schedule with a fresh timestamp, and the failing mark is cleared by the success', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('retry');
    const endpoint = await addEndpoint(o.orgId, path);
    // The first answer is a 500 after a second, so the retry's timestamp is a later second; the retry's answer takes
    // a while too, so the failed first attempt stays in view meanwhile (retries come within milliseconds here).
    await script(path, [
      { status: 500, delayMs: 1100 },
      { status: 200, delayMs: 1500 },
    ]);
    await addEvent(o.orgId);
    const failed = await waitFor(async () => {
      const [row] = await deliveriesOf(o.orgId, endpoint.id);
      return row?.attempts === 1 ? row : undefined;
    });
    expect(failed).toMatchObject({ last_status: 500, last_error: 'HTTP 500' });
    expect(await E.DB.prepare('SELECT failing_since FROM webhook_endpoints WHERE id = ?').bind(endpoint.id).first('failing_since')).not.toBeNull();
    const [first, second] = await receivedAtLeast(path, 2);
    expect(Number(second.headers['webhook-timestamp'])).toBeGreaterThan(Number(first.headers['webhook-timestamp']));
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verify(endpoint.secret, second)).toBeTruthy();
    await waitFor(async () => (await deliveriesOf(o.orgId, endpoint.id))[0]?.state === 'delivered');
    expect((await deliveriesOf(o.orgId, endpoint.id))[0]).toMatchObject({ attempts: 2, last_status: 200 });
    await waitFor(
      async () => (await E.DB.prepare('SELECT failing_since FROM webhook_endpoints WHERE id = ?').bind(endpoint.id).first('failing_since')) === null,
    );
  });

  it('probe an endpoint that does not answer instead of trying every event: the rest wait, spending no attempt, and all go once it answers', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('down');
    // Nothing listens on port 1 of loopback: every connection is refused.
    const endpoint = await addEndpoint(o.orgId, path, { url: 'http://127.0.0.1:1/hook' });
    // Three events in one transaction: one flight.
    const ledger = await ledgerSql(o.orgId);
    await ledger
      .prepare(
        `INSERT INTO events (id, type, at, data) SELECT 'evt_down_' || value, 'message.sent', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), '{}' FROM json_each('[1,2,3]')`,
      )
      .run();
    const downState = () =>
      ledger
        .prepare('SELECT down_until, down_tries FROM webhook_endpoints WHERE id = ?')
        .bind(endpoint.id)
        .first<{ down_until: number | null; down_tries: number }>();
    // Read in one statement (the ledger's state between two flights): each flight so far (the first, then one probe at
    // a time) tried one event and left the others untried, so the attempts add up to the probes, and an event that
    // was not tried has no error.
    const between = await waitFor(() =>
      ledger
        .prepare(
          `SELECT w.down_until, w.down_tries, sum(d.attempts) AS attempts, sum(d.state = 'pending') AS pending,
             sum(d.attempts = 0 AND d.last_error IS NOT NULL) AS untried_with_error, sum(d.attempts > 0 AND d.last_status IS NOT NULL) AS answered
           FROM webhook_endpoints w JOIN webhook_deliveries d ON d.endpoint_id = w.id WHERE w.id = ? GROUP BY w.id`,
        )
        .bind(endpoint.id)
        .first<{ down_until: number | null; down_tries: number; attempts: number; pending: number; untried_with_error: number; answered: number }>()
        .then((row) => (row && row.down_tries >= 2 && row.pending === 3 ? row : undefined)),
    );
    expect(between.down_until).not.toBeNull();
    expect(between).toMatchObject({ attempts: between.down_tries, untried_with_error: 0, answered: 0 });
    // The receiver comes back (the endpoint now points at it): the next probe answers and every event goes.
    await E.DB.prepare('UPDATE webhook_endpoints SET url = ? WHERE id = ?').bind(`${RECEIVER}${path}`, endpoint.id).run();
    forgetEndpoints();
    await waitFor(async () => (await deliveriesOf(o.orgId, endpoint.id)).every((row) => row.state === 'delivered'));
    expect((await received(path)).map((r) => JSON.parse(r.body).id).sort()).toEqual(['evt_down_1', 'evt_down_2', 'evt_down_3']);
    expect(await downState()).toEqual({ down_until: null, down_tries: 0 });
    await mirrorEndpoint(E, db(), o.orgId, { id: endpoint.id, deleted: true });
  });

  it('never follow a redirect: a 3xx is a failed attempt and the target hears nothing', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('redirect');
    const target = uniquePath('target');
    const endpoint = await addEndpoint(o.orgId, path);
    await script(path, [{ status: 302, location: `${RECEIVER}${target}` }]);
    await addEvent(o.orgId);
    // The 302 failed the first attempt; the retry (the next answer is 200) delivered it.
    await waitFor(async () => (await deliveriesOf(o.orgId, endpoint.id))[0]?.state === 'delivered');
    expect((await deliveriesOf(o.orgId, endpoint.id))[0]).toMatchObject({ attempts: 2, last_status: 200 });
    expect(await received(path)).toHaveLength(2);
    expect(await received(target)).toEqual([]);
  });

  it('410 turns the endpoint off: its pending deliveries pause and new events make none', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('gone');
    const endpoint = await addEndpoint(o.orgId, path);
    await script(path, [{ status: 410 }]);
    await addEvent(o.orgId);
    await waitFor(async () => (await E.DB.prepare('SELECT enabled FROM webhook_endpoints WHERE id = ?').bind(endpoint.id).first('enabled')) === 0);
    const row = await E.DB.prepare('SELECT disabled_reason, disabled_at FROM webhook_endpoints WHERE id = ?')
      .bind(endpoint.id)
      .first<{ disabled_reason: string; disabled_at: string }>();
    expect(row?.disabled_reason).toBe('gone');
    await waitFor(async () => (await deliveriesOf(o.orgId, endpoint.id))[0]?.state === 'paused');
    await addEvent(o.orgId);
    expect(await deliveriesOf(o.orgId, endpoint.id)).toHaveLength(1);
    expect(await received(path)).toHaveLength(1);
  });

  it('a day of failures (by the clock) turns the endpoint off and mails the organisation', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('failing');
    const endpoint = await addEndpoint(o.orgId, path);
    await E.DB.prepare('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?')
      .bind(new Date(Date.now() - 25 * 3_600_000).toISOString(), endpoint.id)
      .run();
    forgetEndpoints();
    await script(path, [{ status: 503 }]);
    await addEvent(o.orgId);
    await waitFor(
      async () => (await E.DB.prepare('SELECT disabled_reason FROM webhook_endpoints WHERE id = ?').bind(endpoint.id).first('disabled_reason')) === 'failing',
    );
    const user = await E.DB.prepare('SELECT email, username FROM users WHERE org_id = ?').bind(o.orgId).first<{ email: string | null; username: string }>();
    const mails = await mailsTo(user?.email ?? user!.username);
    expect(mails.some((m) => m.subject.startsWith('Webhook endpoint turned off'))).toBe(true);
    await waitFor(async () => (await deliveriesOf(o.orgId, endpoint.id))[0]?.state === 'paused');
  });
});

describe('the dispatcher', () => {
  it('keeps a slow endpoint to 4 flights and lets another endpoint through meanwhile', async () => {
    const o = await newOrg('wh');
    const slow = uniquePath('slow');
    const fast = uniquePath('fast');
    await script(
      slow,
      Array.from({ length: 20 }, () => ({ status: 200, delayMs: 1500 })),
    );
    const slowEndpoint = await addEndpoint(o.orgId, slow, { eventTypes: ['message.sent'] });
    await addEndpoint(o.orgId, fast, { eventTypes: ['message.failed'] });
    for (let i = 0; i < 100; i++) await addEvent(o.orgId, 'message.sent', { i });
    await addEvent(o.orgId, 'message.failed');
    await receivedAtLeast(fast, 1, 5000);
    const handle = (await orgLedger(E, db(), o.orgId))!;
    const flying = await runInDurableObject(handle.stub, (_i, state) =>
      state.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM webhook_flights WHERE endpoint_id = ?', slowEndpoint.id).one(),
    );
    expect(flying.n).toBeLessThanOrEqual(4);
    const delivered = (await deliveriesOf(o.orgId, slowEndpoint.id)).filter((d) => d.state === 'delivered').length;
    expect(delivered).toBeLessThan(100);
  });

  it('gives an endpoint the events since its creation, not one D1 recorded before it and the stream took in after', async () => {
    const o = await newOrg('wh');
    const endpoint = await addEndpoint(o.orgId, uniquePath('since'));
    const ledger = await ledgerSql(o.orgId);
    await ledger
      .prepare("INSERT INTO events (id, type, at, data) VALUES ('evt_before000000000000000000000000000', 'contact.created', '2026-01-01T00:00:00.000Z', '{}')")
      .run();
    const later = await addEvent(o.orgId, 'contact.created');
    expect((await deliveriesOf(o.orgId, endpoint.id)).map((row) => row.event_id)).toEqual([later]);
  });

  it('delivers again a flight whose lease passed without a report', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('lease');
    const endpoint = await addEndpoint(o.orgId, path, { eventTypes: ['message.opened'] });
    const handle = (await orgLedger(E, db(), o.orgId))!;
    // A flight lost on its way: its delivery is 'sending' under a lease that has passed.
    await runInDurableObject(handle.stub, async (_i, state) => {
      state.storage.sql.exec(
        "INSERT INTO events (id, type, at, data) VALUES ('evt_lost0000000000000000000000000000', 'message.opened', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), '{}')",
      );
      const seq = state.storage.sql.exec<{ seq: number }>("SELECT seq FROM events WHERE id = 'evt_lost0000000000000000000000000000'").one().seq;
      state.storage.sql.exec(
        "UPDATE webhook_deliveries SET state = 'sending', flight_id = 'flt_lost' WHERE endpoint_id = ? AND event_seq = ?",
        endpoint.id,
        seq,
      );
      state.storage.sql.exec("INSERT INTO webhook_flights (id, endpoint_id, lease_until) VALUES ('flt_lost', ?, ?)", endpoint.id, Date.now() - 1);
      await state.storage.setAlarm(Date.now());
    });
    await runDurableObjectAlarm(handle.stub);
    const [request] = await receivedAtLeast(path, 1);
    expect(request.headers['webhook-id']).toBe('evt_lost0000000000000000000000000000');
    await waitFor(async () => (await deliveriesOf(o.orgId, endpoint.id))[0]?.state === 'delivered');
  });

  it("never gives an organisation's endpoint another's events, even when a flight names it", async () => {
    const a = await newOrg('wha');
    const b = await newOrg('whb');
    const path = uniquePath('tenant');
    const endpoint = await addEndpoint(a.orgId, path);
    await addEvent(b.orgId, 'message.sent', { secret: 'of b' });
    // A forged flight of B's ledger naming A's endpoint: the consumer refuses the endpoint of another organisation.
    const bLedger = (await orgLedger(E, db(), b.orgId))!;
    await deliverFlight(E, {
      kind: 'webhook-flight',
      orgId: b.orgId,
      key: bLedger.owner.key,
      generation: 0,
      flightId: 'flt_forged',
      endpointId: endpoint.id,
      batch: false,
      events: [{ seq: 1, id: 'evt_forged', type: 'message.sent', timestamp: new Date().toISOString(), data: '{}' }],
    });
    await addEvent(a.orgId, 'message.sent', { mine: true });
    const [request] = await receivedAtLeast(path, 1);
    await new Promise((r) => setTimeout(r, 1500));
    const all = await received(path);
    expect(all).toHaveLength(1);
    expect(JSON.parse(request.body).data).toEqual({ mine: true });
  });
});

describe('replays', () => {
  it('send a delivered event again, attempts from 0, with a fresh timestamp', async () => {
    const o = await newOrg('wh');
    const path = uniquePath('replay');
    const endpoint = await addEndpoint(o.orgId, path);
    const eventId = await addEvent(o.orgId);
    const [first] = await receivedAtLeast(path, 1);
    await waitFor(async () => (await deliveriesOf(o.orgId, endpoint.id))[0]?.state === 'delivered');
    await new Promise((r) => setTimeout(r, 1100));
    expect(await replayDelivery(E, db(), o.orgId, endpoint.id, eventId)).toEqual({ replayed: 1 });
    expect(await replayDelivery(E, db(), o.orgId, endpoint.id, 'evt_none')).toEqual({ replayed: 0 });
    const [, again] = await receivedAtLeast(path, 2);
    expect(again.headers['webhook-id']).toBe(eventId);
    expect(Number(again.headers['webhook-timestamp'])).toBeGreaterThan(Number(first.headers['webhook-timestamp']));
    expect(verify(endpoint.secret, again)).toBeTruthy();
    await waitFor(async () => (await deliveriesOf(o.orgId, endpoint.id))[0]?.state === 'delivered');
    expect((await deliveriesOf(o.orgId, endpoint.id))[0].attempts).toBe(1);
  });
});
