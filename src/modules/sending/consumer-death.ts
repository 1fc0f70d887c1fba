import type { Env } from '../../env';

// The crash stage's stand-in for a consumer isolate killed in production, where the queue keeps its messages
// (test/crash/runtime-kill.test.ts). workerd cannot kill one isolate on its own, so with FAULT_CONSUMER_DIES_AFTER
// set (never in production) the isolate's deliveries die once, when it has sent that many messages: every delivery
// then in flight stops at its next chunk of CHUNK messages as a dead one would (no heartbeat, no outcome written,
// its queue message not acknowledged), and later deliveries run normally, as in a fresh isolate. What it held waits
// for the lease rules (lease.ts), exactly as after a real death.

/** Messages a dying delivery sends between two looks at whether the isolate has died. */
const CHUNK = 10;

/** Thrown by a delivery that died with its isolate: deliver-batch.ts records nothing for it. */
export class IsolateDeath extends Error {
  constructor() {
    super('the consumer isolate died (FAULT_CONSUMER_DIES_AFTER)');
  }
}

/** This isolate's messages sent so far, deliveries started so far, and how many had started when it died (once). */
const life = { sent: 0, deliveries: 0, diedWith: null as number | null };

/** The hooks deliver-batch.ts takes (its DeliverFaults; not imported from there, which imports this file). */
interface DeathHooks {
  chunkSize?: number;
  afterChunk?: (sentSoFar: number) => void;
}

/** The delivery hooks of the fault for one delivery started now, or none when FAULT_CONSUMER_DIES_AFTER is not set. */
export function consumerDeathFaults(env: Pick<Env, 'FAULT_CONSUMER_DIES_AFTER'>): DeathHooks {
  const after = Number(env.FAULT_CONSUMER_DIES_AFTER);
  if (!env.FAULT_CONSUMER_DIES_AFTER || !Number.isSafeInteger(after) || after < 1) return {};
  const born = ++life.deliveries;
  let counted = 0;
  return {
    chunkSize: CHUNK,
    afterChunk(sentSoFar) {
      // A count that starts again is the batch's next integration.
      life.sent += sentSoFar > counted ? sentSoFar - counted : sentSoFar;
      counted = sentSoFar;
      if (life.diedWith === null && life.sent >= after) {
        life.diedWith = life.deliveries;
        console.error(JSON.stringify({ level: 'error', fault: 'consumer isolate died', sent: life.sent }));
      }
      // Deliveries started after the death run in the "fresh isolate".
      if (life.diedWith !== null && born <= life.diedWith) throw new IsolateDeath();
    },
  };
}
