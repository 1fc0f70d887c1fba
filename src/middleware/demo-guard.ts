import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { ApiError } from '../lib/api-error';
import { isDemoOrganization } from '../modules/demo/demo-info';
import { lockedFeaturesFor } from '../modules/demo/locked-features';
import { MESSAGES } from '../shared/messages';

const API_PREFIX = '/api/v1';

/** Reads a JSON body without consuming it for the route; anything unreadable is no body (the route refuses it). */
async function peekJson(req: Request): Promise<unknown> {
  try {
    return await req.clone().json();
  } catch {
    return undefined;
  }
}

/**
 * Refuses the features locked in the shared demo organisation (src/modules/demo/locked-features.ts) with 403
 * demo_locked. Every other organisation passes straight through.
 */
export const demoGuard = createMiddleware<AppEnv>(async (c, next) => {
  if (isDemoOrganization(c.var.org?.domain)) {
    const path = c.req.path.startsWith(API_PREFIX) ? c.req.path.slice(API_PREFIX.length) : c.req.path;
    for (const feature of lockedFeaturesFor(c.req.method, path)) {
      if (!feature.body || feature.body(await peekJson(c.req.raw))) throw new ApiError(403, 'demo_locked', MESSAGES.demoLocked);
    }
  }
  await next();
});
