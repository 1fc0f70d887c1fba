import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireAuth } from '../../middleware/auth';
import type { Dictionaries, GuestInit, UserInit } from '../../shared/contracts/auth';
import { LANGUAGES } from '../../shared/languages';
import { PASSWORD_POLICY } from '../../shared/password-policy';
import { loadCurrentUser } from './current-user';
import { authMethods } from './routes';
import { readSignupSettings } from '../platform-settings/settings';
import { configuredProviders } from '../social/providers';
import { demoResetHours, isDemoOrganization } from '../demo/demo-info';

/** Where the Swagger UI lives: the API base with its version segment replaced (/api/v1 → /api/swagger-ui). */
export const API_DOCS_PATH = '/api/swagger-ui';


export const DICTIONARIES: Dictionaries = {
  integration_types: ['smtp', 'twilio'],
  address_types: ['email', 'phone'],
  field_types: ['number', 'text', 'select', 'multiselect', 'boolean'],
  template_types: ['html', 'text', 'email'],
};

/** /init: what the console loads before anything else, for guests and for signed-in users. */
export const initRoutes = new Hono<AppEnv>()
  .get('/guest', async (c) => {
    const { accessTokenTtl, refreshTokenTtl, environment } = c.var.settings;
    const org = c.var.org ?? null;
    const body: GuestInit = {
      password_config: PASSWORD_POLICY,
      auth: { access_token_ttl: accessTokenTtl, refresh_token_ttl: refreshTokenTtl, refresh_header: 'x-refresh' },
      auth_methods: authMethods(),
      organization: org,
      social_providers: configuredProviders(c.env),
      api_docs_url: API_DOCS_PATH,
      settings: {
        name: org?.name ?? 'Relay',
        env: environment,
        'signin.mode': 'simple',
        ...(await readSignupSettings(c.env, c.var.db)),
        languages: [...LANGUAGES],
        demo: isDemoOrganization(org?.domain),
        'demo.reset_length': demoResetHours(c.env),
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
