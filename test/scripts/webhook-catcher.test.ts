// @vitest-environment node
// The local webhook catcher (scripts/webhook-catcher.mjs), a real server on loopback: it checks each delivery's
// Standard Webhooks signature against the secrets it knows, keeps what arrived, and fails on purpose when told to.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type CaughtWebhook, startWebhookCatcher, type WebhookCatcher } from '../../scripts/webhook-catcher.mjs';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

describe('webhook catcher', () => {
  let dir: string;
  let catcher: WebhookCatcher;
  const seeded = newSecret();

  /** POSTs an event the way the platform does, signed with `secret` (unsigned without one). */
  const deliver = (event: { id: string; type: string }, secret?: string, at = new Date()) => {
    const body = JSON.stringify({ ...event, version: 1, timestamp: at.toISOString(), data: { message: { id: 7 } } });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret) {
      headers['webhook-id'] = event.id;
      headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
      headers['webhook-signature'] = new Webhook(secret).sign(event.id, at, body);
    }
    return fetch(`${catcher.url}/relay`, { method: 'POST', headers, body });
  };
  const caught = async () => (await (await fetch(`${catcher.url}/api/requests`)).json()) as { items: CaughtWebhook[]; counts: Record<string, number> };
  const eventIds = async () => ((await (await fetch(`${catcher.url}/api/event-ids`)).json()) as { ids: string[] }).ids;
  const behave = (input: object) => fetch(`${catcher.url}/api/behaviour`, { method: 'POST', body: JSON.stringify(input) });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'relay-webhooks-'));
    catcher = await startWebhookCatcher({ port: 0, secretsFile: path.join(dir, 'webhooks.json') });
  });
  afterAll(async () => {
    await catcher.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await fetch(`${catcher.url}/api/requests`, { method: 'DELETE' });
    await behave({ failRate: 0, downUntil: 0 });
    rmSync(path.join(dir, 'webhooks.json'), { force: true });
  });

  it('says "no secret" until it knows one, then tells a good signature from a bad one, newest first', async () => {
    expect((await deliver({ id: 'evt_none', type: 'message.sent' }, newSecret())).status).toBe(204);
    writeFileSync(catcher.secretsFile, JSON.stringify({ secrets: { 'http://127.0.0.1/relay': seeded } }));
    expect((await deliver({ id: 'evt_good', type: 'message.opened' }, seeded)).status).toBe(204);
    expect((await deliver({ id: 'evt_bad', type: 'message.clicked' }, newSecret())).status).toBe(204);
    expect((await deliver({ id: 'evt_old', type: 'message.sent' }, seeded, new Date(Date.now() - 10 * 60_000))).status).toBe(204);
    expect((await deliver({ id: 'evt_unsigned', type: 'message.sent' })).status).toBe(204);

    const { items, counts } = await caught();
    expect(items.map((r) => [r.webhookId, r.types, r.verdict])).toEqual([
      [null, ['message.sent'], 'bad'],
      ['evt_old', ['message.sent'], 'bad'],
      ['evt_bad', ['message.clicked'], 'bad'],
      ['evt_good', ['message.opened'], 'ok'],
      ['evt_none', ['message.sent'], 'none'],
    ]);
    expect(items[1].verdictDetail).toMatch(/too old/);
    expect(items[3]).toMatchObject({ path: '/relay', answered: 204, duplicate: false, body: { id: 'evt_good', data: { message: { id: 7 } } } });
    expect(counts).toMatchObject({ received: 5, accepted: 5, duplicates: 0, unverified: 4 });

    const page = await (await fetch(`${catcher.url}/`)).text();
    expect(page).toContain('signature ok');
    expect(page).toContain('signature bad');
    expect(page).toContain('no secret');
    expect(page.indexOf('evt_bad')).toBeLessThan(page.indexOf('evt_good'));
    expect(page).toContain('&quot;message.opened&quot;');
  });

  it('verifies with a secret added through the API and counts a webhook-id accepted twice as a duplicate', async () => {
    const added = newSecret();
    expect((await fetch(`${catcher.url}/api/secrets`, { method: 'POST', body: JSON.stringify({ secret: 'nope' }) })).status).toBe(422);
    expect((await fetch(`${catcher.url}/api/secrets`, { method: 'POST', body: JSON.stringify({ secret: added }) })).status).toBe(200);
    await deliver({ id: 'evt_twice', type: 'contact.created' }, added);
    await deliver({ id: 'evt_twice', type: 'contact.created' }, added);
    await deliver({ id: 'evt_once', type: 'contact.created' }, added);
    const { items, counts } = await caught();
    expect(items.map((r) => [r.webhookId, r.verdict, r.duplicate])).toEqual([
      ['evt_once', 'ok', false],
      ['evt_twice', 'ok', true],
      ['evt_twice', 'ok', false],
    ]);
    expect(counts).toMatchObject({ received: 3, accepted: 3, duplicates: 1, unverified: 0 });
    expect((await eventIds()).sort()).toEqual(['evt_once', 'evt_twice']);
  });

  it('fails the asked share with 500 and drops connections while down; a failed delivery is no duplicate of its retry', async () => {
    writeFileSync(catcher.secretsFile, JSON.stringify({ secrets: { 'http://127.0.0.1/relay': seeded } }));
    expect((await behave({ failRate: 2 })).status).toBe(422);
    expect((await behave({ downUntil: 'soon' })).status).toBe(422);
    expect(await (await behave({ failRate: 1 })).json()).toEqual({ failRate: 1, downUntil: 0 });
    expect((await deliver({ id: 'evt_retry', type: 'message.sent' }, seeded)).status).toBe(500);
    await behave({ failRate: 0, downUntil: Date.now() + 60_000 });
    await expect(deliver({ id: 'evt_retry', type: 'message.sent' }, seeded)).rejects.toThrow();
    await behave({ downUntil: 0 });
    expect((await deliver({ id: 'evt_retry', type: 'message.sent' }, seeded)).status).toBe(204);

    const { items, counts } = await caught();
    expect(items.map((r) => [r.webhookId, r.answered, r.duplicate])).toEqual([
      ['evt_retry', 204, false],
      ['evt_retry', 500, false],
    ]);
    expect(counts).toEqual({ received: 3, accepted: 1, duplicates: 0, failed: 1, dropped: 1, unverified: 0 });
    expect(await eventIds()).toEqual(['evt_retry']);
  });
});
