import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { dispatchQueue } from '../../queues/dispatch';
import { sendHandlers } from '../../queues/send';
import worker from '../../src/index';
import { call, createOrg, signIn } from './helpers';

function fakeMessage(body: { kind: string; [key: string]: unknown }, attempts = 1) {
  return {
    id: crypto.randomUUID(),
    timestamp: new Date(),
    body,
    attempts,
    ack: vi.fn(),
    retry: vi.fn(),
  };
}

function batchOf(queue: string, messages: ReturnType<typeof fakeMessage>[]) {
  return { queue, messages, ackAll: vi.fn(), retryAll: vi.fn() } as unknown as MessageBatch<never>;
}

describe('queue dispatch', () => {
  it('acks a message whose handler succeeds and retries with backoff one whose handler throws', async () => {
    const seen: number[] = [];
    const ok = vi.spyOn(sendHandlers, 'send-message').mockImplementation(async (body) => void seen.push(body.messageId));
    const failing = vi.spyOn(sendHandlers, 'system-mail').mockRejectedValue(new Error('provider down'));
    try {
      const good = fakeMessage({ kind: 'send-message', orgId: 1, messageId: 7 });
      const bad = fakeMessage({ kind: 'system-mail', mailId: 3 }, 3);
      await dispatchQueue(batchOf('relay-send', [good, bad]), env);
      expect(seen).toEqual([7]);
      expect(good.ack).toHaveBeenCalledOnce();
      expect(good.retry).not.toHaveBeenCalled();
      expect(bad.ack).not.toHaveBeenCalled();
      expect(bad.retry).toHaveBeenCalledWith({ delaySeconds: 8 });
      expect(failing).toHaveBeenCalledOnce();
    } finally {
      ok.mockRestore();
      failing.mockRestore();
    }
  });

  it('retries a kind no handler knows (so it ends in the dead-letter queue), and acks dead letters', async () => {
    const unknown = fakeMessage({ kind: 'no-such-kind' });
    // A kind of another queue is as unknown here as one of no queue.
    const elsewhere = fakeMessage({ kind: 'send-message', orgId: 1, messageId: 7 });
    await dispatchQueue(batchOf('relay-import', [unknown, elsewhere]), env);
    expect(unknown.retry).toHaveBeenCalledOnce();
    expect(elsewhere.retry).toHaveBeenCalledOnce();
    const dead = fakeMessage({ kind: 'no-such-kind' });
    await dispatchQueue(batchOf('relay-import-dlq', [dead]), env);
    expect(dead.ack).toHaveBeenCalledOnce();
  });
});

describe('cron housekeeping', () => {
  it('drops sessions that expired over a day ago and keeps live ones', async () => {
    const { username } = await createOrg('cron');
    const live = await signIn('cron', username);
    await signIn('cron', username);
    await env.DB.prepare("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = (SELECT id FROM sessions ORDER BY rowid DESC LIMIT 1)").run();
    await env.DB.prepare("INSERT INTO rate_limits (key, window_start, count) VALUES ('old', 1, 3), ('fresh', ?, 1)")
      .bind(Math.floor(Date.now() / 1000))
      .run();

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: '*/15 * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);

    const sessions = await env.DB.prepare('SELECT COUNT(*) AS n FROM sessions').first<{ n: number }>();
    expect(sessions?.n).toBe(1);
    const me = await call('cron', '/api/v1/internal-user/me', { token: live.access_token });
    expect(me.status).toBe(200);
    const keys = await env.DB.prepare('SELECT key FROM rate_limits ORDER BY key').all<{ key: string }>();
    expect(keys.results.map((r) => r.key)).toEqual(['fresh']);
  });
});

describe('organisation hub', () => {
  it('refuses plain requests and publishes to connected sockets', async () => {
    const stub = env.ORG_HUB.get(env.ORG_HUB.idFromName('1'));
    const plain = await stub.fetch('http://hub/');
    expect(plain.status).toBe(426);
    const res = await stub.fetch('http://hub/', { headers: { upgrade: 'websocket' } });
    expect(res.status).toBe(101);
    const socket = res.webSocket!;
    socket.accept();
    const received = new Promise<string>((resolve) => socket.addEventListener('message', (e) => resolve(String(e.data))));
    expect(await stub.publish({ type: 'import.finished', id: 7 })).toBe(1);
    expect(JSON.parse(await received)).toEqual({ type: 'import.finished', id: 7 });
    socket.close(1000, 'done');
    // Once the close handshake is through, the hub holds no socket and publishing reaches no one.
    let open = -1;
    for (let tries = 0; tries < 100 && open !== 0; tries++) {
      await new Promise((r) => setTimeout(r, 20));
      open = await runInDurableObject(stub, (_instance, state) => state.getWebSockets().length);
    }
    expect(open).toBe(0);
    expect(await stub.publish({ type: 'import.finished', id: 8 })).toBe(0);
  });
});
