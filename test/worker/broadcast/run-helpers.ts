// A broadcast driven step by step in worker tests: an organisation with channels, templates, a subscription, a
// tag and tagged contacts; the runner's alarm with its send queue recorded; the real consumer with a recording
// transport.
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { BroadcastRunner } from '../../../src/modules/broadcast/runner';
import type { Env } from '../../../src/env';
import { SendChannels } from '../../../src/modules/sending/channels';
import { deliverBatch } from '../../../src/modules/sending/deliver-batch';
import type { SendBatchBody } from '../../../src/modules/sending/send-queue';
import { channels, createTemplate, insertContact, newOrg, recordingProviders, type Org } from '../channel-helpers';

export const E = env as unknown as Env;
export const IN_AN_HOUR = () => new Date(Date.now() + 3_600_000).toISOString();

/** An organisation with channels, an email and a text template, a subscription, a tag and tagged contacts. */
export async function setup(prefix = 'bc') {
  const o = await newOrg(prefix);
  const ch = await channels(o);
  const email = await createTemplate(o, { type: 'email', name: 'News', subject: 'Hi {{ contact.name }}', body: '<p>Hello {{ contact.name }}</p>' });
  const text = await createTemplate(o, { type: 'text', name: 'SMS', body: 'Hi {{ contact.name }}' });
  const subscription = (await o.api('POST', '/subscription', { name: 'News' })).body.data;
  const tag = (await o.api('POST', '/tag', { name: 'VIP' })).body.data;
  const people = {
    ann: await insertContact(o.orgId, 'Ann', [
      { type: 'email', value: 'ann@example.com' },
      { type: 'phone', value: '+15550000001' },
    ]),
    bob: await insertContact(o.orgId, 'Bob', [{ type: 'phone', value: '+15550000002' }]),
    cat: await insertContact(o.orgId, 'Cat', [{ type: 'email', value: 'cat@example.com' }]),
    dan: await insertContact(o.orgId, 'Dan', [{ type: 'email', value: 'dan@example.com' }]),
  };
  for (const id of Object.values(people))
    await env.DB.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)').bind(o.orgId, id, tag.id).run();
  const body = (extra: Record<string, unknown> = {}) => ({
    name: 'Launch',
    type: 'email',
    sender_id: ch.email.id,
    template_id: email.id,
    subscription_id: subscription.id,
    contacts: { filter: { tags: [tag.id] } },
    ...extra,
  });
  return { o, ch, email, text, subscription, tag, people, body };
}

/** Runs the broadcast's runner alarm once with its send queue recorded; answers what it queued. */
export async function runAlarm(
  o: Org,
  broadcastId: number,
  after?: (state: DurableObjectState) => Promise<void>,
  vars: Partial<Env> = {},
): Promise<SendBatchBody[]> {
  const queued: SendBatchBody[] = [];
  const queue = { sendBatch: async (batch: { body: SendBatchBody }[]) => void queued.push(...batch.map((m) => m.body)) } as unknown as Queue;
  const stub = E.BROADCAST.get(E.BROADCAST.idFromName(String(broadcastId)));
  await runInDurableObject(stub, async (instance: BroadcastRunner, state) => {
    (instance as unknown as { env: Env }).env = { ...E, ...vars, SEND_QUEUE: queue } as Env;
    await state.storage.put('ref', { orgId: o.orgId, broadcastId });
    await instance.alarm();
    await after?.(state);
    await state.storage.deleteAlarm();
  });
  return queued;
}

/** A scheduled broadcast (nothing runs by itself), moved to queued so the test's alarm starts it now. */
export async function startable(o: Org, body: Record<string, unknown>) {
  const res = await o.api('POST', '/broadcast', { ...body, delayed_at: IN_AN_HOUR() });
  expect(res.status, res.text).toBe(201);
  const id = res.body.data.id as number;
  // The runner was woken and sleeps until the scheduled time: take its alarm away, the test runs it instead.
  await runInDurableObject(E.BROADCAST.get(E.BROADCAST.idFromName(String(id))), (_instance, state) => state.storage.deleteAlarm());
  await env.DB.prepare("UPDATE broadcasts SET status = 'queued' WHERE id = ?").bind(id).run();
  return id;
}

export async function deliverAll(bodies: SendBatchBody[], results: Parameters<typeof recordingProviders>[0] = [{ ok: true, externalId: 'x' }]) {
  const rec = recordingProviders(results);
  const channelsOf = new SendChannels(E, rec.providers);
  for (const body of bodies) await deliverBatch(E, body, 1, channelsOf).catch(() => {});
  await channelsOf.close();
  return rec;
}
