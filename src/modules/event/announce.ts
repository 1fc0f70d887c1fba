import type { Context, MiddlewareHandler } from 'hono';
import { createDb } from '../../db/client';
import type { AppEnv } from '../../context';
import type { Env } from '../../env';
import { orgLedger } from '../ledger/registry';
import { served } from '../ledger/owner';

// What tells the stream D1 has new events: a write whose triggers record events in D1's outbox (contacts,
// unsubscribes, suppressions, SMS opt-outs and inbound SMS) announces them, and the organisation's first ledger
// absorbs them (absorb.ts) after the answer. An announcement lost (the isolate went) is made good by the next one, by
// the pull API (which absorbs first) and by the housekeeping cron (housekeeping.ts).

/** Asks the organisation's first ledger to absorb its outbox; answers how many events it took (0 on a failure, logged). */
export async function announceEvents(env: Env, orgId: number): Promise<number> {
  try {
    const handle = await orgLedger(env, createDb(env.DB), orgId);
    return handle ? served(await handle.stub.absorbEvents(handle.owner)) : 0;
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', job: 'announceEvents', org: orgId, error: String(error) }));
    return 0;
  }
}

/** announceEvents after the request's answer (the route's own organisation unless `orgId` names another). */
export function announceAfter(c: Context<AppEnv>, orgId: number = c.var.org.id): void {
  c.executionCtx.waitUntil(announceEvents(c.env, orgId));
}

/** Middleware: a successful write of the routes after it announces its events (where the routes have no hook of their own). */
export const announceWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.res.status < 400) announceAfter(c);
};
