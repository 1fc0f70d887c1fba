import { buildApp, buildTrackingApp, isTrackingRequest } from './app';
import type { Env } from './env';
import { runCron } from './scheduled';
import { dispatchQueue } from '../queues/dispatch';
import type { AnyQueueBody } from './queue-bodies';
import { receiveBounceMail } from './modules/bounce/receive';
import { answeringRequest } from './lib/requests-first';

export { BroadcastRunner } from '../durable-objects/broadcast-runner';
export { OrgHub } from '../durable-objects/org-hub';
export { OrgLedger } from '../durable-objects/org-ledger';

const app = buildApp();
const tracking = buildTrackingApp();

export default {
  /** Counted as in flight so that background sending steps aside meanwhile (src/lib/requests-first.ts). */
  fetch: (request, env, ctx) => answeringRequest(() => (isTrackingRequest(request) ? tracking : app).fetch(request, env, ctx)),
  queue: (batch, env) => dispatchQueue(batch, env),
  /** The watchdog (every minute) and the housekeeping (every 15 minutes): src/scheduled.ts. */
  scheduled: (controller, env, ctx) => ctx.waitUntil(runCron(controller.cron, env)),
  /** Mail to the bounce domain (Cloudflare Email Routing): bounces and spam complaints, src/modules/bounce. */
  email: (message, env) => receiveBounceMail(message, env),
} satisfies ExportedHandler<Env, AnyQueueBody>;
