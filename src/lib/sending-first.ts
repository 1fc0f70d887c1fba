// Sending first: a webhook delivery steps back while this isolate is sending mail.
//
// Like requests-first.ts for a broadcast's rendering, this orders work that shares an isolate's one thread. A webhook
// request is latency-tolerant (at least once, retried, receivers deduplicate); a broadcast's batch is what its sender
// waits on and what the integration's rate is measured by. Measured under `wrangler dev`, where everything shares one
// thread (bench:webhooks), an endpoint taking every event took half of a broadcast's speed while it sent: each of
// its requests (signed, fetched, settled in the ledger) costs about a millisecond of the thread, and four flights of
// them ran without pause. So while a send or transactional batch runs in this isolate, each webhook request first
// waits DELIVERY_PAUSE_MS (a timer: no CPU), which holds one endpoint's deliveries to about 160 a second (4 flights)
// until the sending stops, when they go at full speed again. Deployed, this applies only when Cloudflare runs a
// webhooks invocation in an isolate that is also sending; the price is that much delay on webhooks there.

let sending = 0;

/** The pause before each webhook request while this isolate sends. */
export const DELIVERY_PAUSE_MS = 25;

/** Runs a send (or transactional) batch, counted as sending until it ends. */
export async function whileSending<T>(work: () => Promise<T>): Promise<T> {
  sending++;
  try {
    return await work();
  } finally {
    sending--;
  }
}

/** Awaited before each webhook request: nothing while this isolate sends nothing, else a pause first. */
export function deliveryTurn(): Promise<void> | undefined {
  if (sending === 0) return undefined;
  return new Promise<void>((resolve) => setTimeout(resolve, DELIVERY_PAUSE_MS));
}
