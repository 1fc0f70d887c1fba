// Requests first: a broadcast's rendering and encoding step aside while this isolate is answering a request.
//
// An isolate runs one piece of work at a time, and a send batch's lanes always have some ready: a request's next
// step (after each of its D1 or ledger calls) waits behind them. Measured under `wrangler dev`, where every
// organisation shares one isolate (bench:isolation, README), another organisation's list requests took 22 ms at the
// median while a big broadcast sent, against 14 ms without it. Deployed, the same happens whenever a consumer and
// requests share an isolate. So while a request is in flight each background step waits for a timer turn, one step
// per turn across the isolate, and the request's own steps run in between: the median went back to 15-20 ms. With no
// request in flight a step costs nothing (a turn costs about 1 ms in workerd: taken always, it would halve a
// lone broadcast's speed). The price: while a long request is in flight (a large import's upload), sending in the
// same isolate goes at most one step per turn, a few hundred messages a second.
// Single messages (the transactional queue) do not step aside: someone waits for each as for a request (inForeground).

import { AsyncLocalStorage } from 'node:async_hooks';

let answering = 0;

/** Set while the isolate delivers single messages: someone waits for each (a sign-in code), as for a request. */
const foreground = new AsyncLocalStorage<true>();

/** Runs `work` without stepping aside for requests (the transactional queue's consumer). */
export const inForeground = <T>(work: () => Promise<T>): Promise<T> => foreground.run(true, work);
let turns: Promise<void> = Promise.resolve();

/** Runs a request's handler, counted as in flight until its response (not its streamed body) is ready. */
export async function answeringRequest<T>(handle: () => T | Promise<T>): Promise<T> {
  answering++;
  try {
    return await handle();
  } finally {
    answering--;
  }
}

/**
 * Awaited before each message a background loop renders or encodes: nothing to wait for while no request is in
 * flight, else the step's turn after every step already waiting (skipped if the request is done by then).
 */
export function backgroundStep(): Promise<void> | undefined {
  if (answering === 0 || foreground.getStore()) return undefined;
  const turn = turns.then(() => (answering === 0 ? undefined : new Promise<void>((resolve) => setTimeout(resolve, 0))));
  turns = turn;
  return turn;
}
