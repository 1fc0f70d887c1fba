import { asc, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { requireAuth, sessionOfAccessToken } from '../../middleware/auth';
import { unauthorized } from '../../lib/api-error';
import { validJson } from '../../lib/validate';
import { socialUserLoadSchema } from '../../shared/contracts/social';
import { MESSAGES } from '../../shared/messages';
import type { Dictionaries, GuestInit, Preloadables, UserInit } from '../../shared/contracts/auth';
import { LANGUAGES } from '../../shared/languages';
import { PASSWORD_POLICY } from '../../shared/password-policy';
import { loadCurrentUser } from './current-user';
import { authMethods } from './routes';
import { readSignupSettings } from '../platform-settings/settings';
import { signupPrice } from '../signup/payment';
import { configuredProviders } from '../social/providers';
import { demoResetHours, isDemoOrganization } from '../demo/demo-info';
import { chatWidgetOf } from '../chat-widget/config';
import { consoleSettings } from '../console-settings/settings';
import { fields, integrations } from '../../db/schema';
import { presentFields } from '../field/routes';
import { presentIntegration } from '../integration/account';

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
    const price = signupPrice(c.env);
    const body: GuestInit = {
      password_config: PASSWORD_POLICY,
      auth: { access_token_ttl: accessTokenTtl, refresh_token_ttl: refreshTokenTtl, refresh_header: 'x-refresh' },
      auth_methods: authMethods(),
      organization: org,
      social_providers: configuredProviders(c.env),
      api_docs_url: API_DOCS_PATH,
      chat_widget: chatWidgetOf(c.env),
      settings: {
        name: org?.name ?? 'Relay',
        env: environment,
        'signin.mode': 'simple',
        ...(await readSignupSettings(c.env, c.var.db)),
        'signup.amount': price.amountCents,
        'signup.currency': price.currency,
        languages: [...LANGUAGES],
        demo: isDemoOrganization(org?.domain),
        'demo.reset_length': demoResetHours(c.env),
        ...consoleSettings(c.env),
      },
    };
    return c.json({ data: body });
  })
  .get('/user', requireAuth, async (c) => {
    const [user, preloaded] = await Promise.all([loadCurrentUser(c), preloadables(c)]);
    const body: UserInit = { user, preloadables: preloaded };
    return c.json({ data: body });
  });

/** The dictionaries and the organisation's integrations and fields, in display order (spec 3 "Init data"). */
async function preloadables(c: Context<AppEnv>): Promise<Preloadables> {
  const orgId = c.var.org.id;
  const [integrationRows, fieldRows] = await c.var.db.batch([
    c.var.db.select().from(integrations).where(eq(integrations.orgId, orgId)).orderBy(asc(integrations.priority), asc(integrations.id)),
    c.var.db.select().from(fields).where(eq(fields.orgId, orgId)).orderBy(asc(fields.priority), asc(fields.id)),
  ]);
  return { ...DICTIONARIES, integrations: integrationRows.map((row) => presentIntegration(c.env, row)), fields: await presentFields(c, fieldRows) };
}

/** /internal-user: the signed-in user. */
export const internalUserRoutes = new Hono<AppEnv>()
  .get('/me', requireAuth, async (c) => c.json({ data: await loadCurrentUser(c) }))
  // Spec section 7: a social sign-in loads its user from the tokens in the body (same checks as requireAuth).
  .post('/me', validJson(socialUserLoadSchema), async (c) => {
    const { access_token, auth_type_id } = c.req.valid('json');
    const auth = await sessionOfAccessToken(c, access_token);
    if (auth.authTypeId !== auth_type_id) throw unauthorized(MESSAGES.sessionExpired);
    c.set('auth', auth);
    return c.json({ data: await loadCurrentUser(c) });
  });
