import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireAuth } from '../../middleware/auth';
import type { Dictionaries, GuestInit, UserInit } from '../../shared/contracts/auth';
import { LANGUAGES } from '../../shared/languages';
import { PASSWORD_POLICY } from '../../shared/password-policy';
import { loadCurrentUser } from './current-user';
import { authMethods } from './routes';


export const DICTIONARIES: Dictionaries = {
  integration_types: ['smtp', 'twilio'],
  address_types: ['email', 'phone'],
  field_types: ['number', 'text', 'select', 'multiselect', 'boolean'],
  template_types: ['html', 'text', 'email'],
};

/** /init: what the console loads before anything else, for guests and for signed-in users. */
export const initRoutes = new Hono<AppEnv>()
  .get('/guest', (c) => {
    const { accessTokenTtl, refreshTokenTtl, environment } = c.var.settings;
    const body: GuestInit = {
      password_config: PASSWORD_POLICY,
      auth: { access_token_ttl: accessTokenTtl, refresh_token_ttl: refreshTokenTtl, refresh_header: 'x-refresh' },
      auth_methods: authMethods(),
      organization: c.var.org,
      settings: {
        name: c.var.org.name,
        env: environment,
        'signin.mode': 'simple',
        'signup.enabled': true,
        'signup.active': true,
        languages: [...LANGUAGES],
      },
    };
    return c.json({ data: body });
  })
  .get('/user', requireAuth, async (c) => {
    const body: UserInit = { user: await loadCurrentUser(c), dictionaries: DICTIONARIES };
    return c.json({ data: body });
  });

/** /internal-user: the signed-in user. */
export const internalUserRoutes = new Hono<AppEnv>().get('/me', requireAuth, async (c) =>
  c.json({ data: await loadCurrentUser(c) }),
);
