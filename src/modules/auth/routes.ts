import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireAuth, sessionIdOf } from '../../middleware/auth';
import { unauthorized } from '../../lib/api-error';
import { validJson } from '../../lib/validate';
import { AUTH_TYPE_API_KEY, AUTH_TYPE_ORG_KEY, AUTH_TYPE_PASSWORD, AUTH_TYPE_SOCIAL, tokenCreateSchema } from '../../shared/contracts/auth';
import { checkCredentials } from './login';
import { openSession, refreshTokenOf, revokeSession, rotateSession } from './sessions';

/** /internal-auth: sign in, refresh (rotating), sign out. */
export const internalAuthRoutes = new Hono<AppEnv>()
  .post('/token-create', validJson(tokenCreateSchema), async (c) => {
    const { username, password } = c.req.valid('json');
    const userId = await checkCredentials(c, username, password);
    return c.json(await openSession(c, userId, AUTH_TYPE_PASSWORD));
  })
  .post('/token-refresh', async (c) => {
    const token = refreshTokenOf(c);
    if (!token) throw unauthorized();
    return c.json(await rotateSession(c, token));
  })
  .post('/logout', requireAuth, async (c) => {
    await revokeSession(c, sessionIdOf(c));
    return c.json({ data: { ok: true } });
  })
  .get('/methods', (c) => c.json({ data: authMethods() }));

/** The ways a client can authenticate, with the header and prefix each uses. */
export function authMethods() {
  return [
    { id: AUTH_TYPE_PASSWORD, name: 'password', details: { header: 'Authorization', prefix: 'Bearer' } },
    { id: AUTH_TYPE_API_KEY, name: 'api_key', details: { header: 'X-API-KEY', prefix: '' } },
    { id: AUTH_TYPE_SOCIAL, name: 'social', details: { header: 'Authorization', prefix: 'Bearer' } },
    { id: AUTH_TYPE_ORG_KEY, name: 'organization_api_key', details: { header: 'Authorization', prefix: 'Bearer' } },
  ];
}
