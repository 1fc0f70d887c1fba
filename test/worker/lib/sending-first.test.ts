// Webhook requests step back while the isolate sends (a send or transactional batch in flight), and cost nothing
// otherwise (src/lib/sending-first.ts).
import { describe, expect, it } from 'vitest';
import { DELIVERY_PAUSE_MS, deliveryTurn, whileSending } from '../../../src/lib/sending-first';

describe('sending first', () => {
  it('gives a webhook request its turn at once when nothing sends', () => {
    expect(deliveryTurn()).toBeUndefined();
  });

  it('pauses each webhook request while a batch sends, and no longer once it ended', async () => {
    let release!: () => void;
    const batch = whileSending(() => new Promise<void>((resolve) => (release = resolve)));
    const order: string[] = [];
    const started = Date.now();
    const webhook = (async () => {
      await deliveryTurn();
      order.push('webhook request');
    })();
    // The batch's own work (a timer turn) runs before the webhook request's.
    await new Promise((r) => setTimeout(r, 0));
    order.push('send step');
    await webhook;
    expect(order).toEqual(['send step', 'webhook request']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DELIVERY_PAUSE_MS - 1);
    release();
    await batch;
    expect(deliveryTurn()).toBeUndefined();
  });

  it('still counts a batch that threw as ended', async () => {
    await expect(whileSending(() => Promise.reject(new Error('smtp down')))).rejects.toThrow('smtp down');
    expect(deliveryTurn()).toBeUndefined();
  });
});
