import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { organizations } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { completeSocial } from './complete';
import { consumeOAuthState } from './oauth-state';
import { findProvider } from './providers';
import { SOCIAL_ERRORS } from './social-redirects';

const invalidState = () => new ApiError(400, 'link_invalid', SOCIAL_ERRORS.invalidState);

/**
 * /social/callback/{provider} (platform host): where providers send the browser back. The state (single use,
 * ten minutes) names the organisation, the action and, for a link, the user; the browser then goes on to that
 * organisation's host, with the state, which that browser's console checks against the one it stored. An
 * unknown, used, confirmed, expired or mismatched state is a 400: no organisation to go back to.
 */
export const socialCallbackRoutes = new Hono<AppEnv>().get('/:provider', async (c) => {
  const state = c.req.query('state');
  if (!state || state.length > 512) throw invalidState();
  const saved = await consumeOAuthState(c.var.db, state);
  if (!saved || saved.provider !== c.req.param('provider')) throw invalidState();
  const [org] = await c.var.db
    .select({ id: organizations.id, name: organizations.name, domain: organizations.domain })
    .from(organizations)
    .where(eq(organizations.id, saved.orgId))
    .limit(1);
  if (!org) throw invalidState();
  c.set('org', org);
  const next = await completeSocial(c, findProvider(c.env, saved.provider), saved, state);
  // The URL may carry tokens: keep it out of caches and of the next page's Referer.
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  return c.redirect(next, 302);
});
