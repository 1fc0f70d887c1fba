import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client } from 'arctic';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError, notFound } from '../../lib/api-error';
import { validJson } from '../../lib/validate';
import { requireAuth, sessionIdOf, userIdOf } from '../../middleware/auth';
import { SOCIAL_STATUS, socialAuthorizeSchema, socialLinkSchema, type SocialProviderView } from '../../shared/contracts/social';
import { unlinkKeepingAMethod } from '../account/login-methods';
import { recordActivity } from '../activity-log/record';
import { ProviderError, providerEndpoints } from './endpoints';
import { confirmLink } from './link';
import { saveOAuthState } from './oauth-state';
import { configuredProviders, findProvider, type ResolvedProvider } from './providers';
import { accountLabel, SOCIAL_ENTITY } from './social-activity';
import { socialAccountsOf } from './social-accounts';

const providerOr404 = (c: Context<AppEnv>): ResolvedProvider => {
  const provider = findProvider(c.env, c.req.param('provider') ?? '');
  if (!provider) throw notFound();
  return provider;
};

/** Link and unlink change how a person signs in: only a console sign-in (a session) may, never an API key (403). */
async function requireSession(c: Context<AppEnv>): Promise<void> {
  await requireAuth(c, async () => {});
  sessionIdOf(c);
}

/** /social: providers, authorize (login or link), link confirmation, unlink. */
export const socialRoutes = new Hono<AppEnv>()
  .get('/', requireAuth, async (c) => {
    const linked = await socialAccountsOf(c.var.db, c.var.org.id).forUser(userIdOf(c));
    const views: SocialProviderView[] = configuredProviders(c.env).map(({ id, name }) => {
      const account = linked.find((a) => a.provider === id);
      return { id, name, linked: Boolean(account), account: account ? accountLabel(account) : null };
    });
    return c.json({ data: views });
  })
  .post('/:provider/authorize', validJson(socialAuthorizeSchema), async (c) => {
    const provider = providerOr404(c);
    const { action } = c.req.valid('json');
    if (action === 'link') await requireSession(c);
    let authorization: string;
    try {
      authorization = (await providerEndpoints(provider)).authorization;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw new ApiError(503, 'provider_unavailable', `${provider.name} cannot be reached right now. Try again later.`);
    }
    const state = generateState();
    const codeVerifier = generateCodeVerifier();
    await saveOAuthState(c.var.db, {
      state,
      orgId: c.var.org.id,
      provider: provider.id,
      action,
      userId: action === 'link' ? userIdOf(c) : null,
      codeVerifier,
      device: c.req.header('x-device')?.slice(0, 300) || null,
    });
    const client = new OAuth2Client(provider.clientId, provider.clientSecret, provider.redirectUri);
    const url = client.createAuthorizationURLWithPKCE(authorization, state, CodeChallengeMethod.S256, codeVerifier, provider.scopes);
    return c.json({ data: { url: url.toString() } });
  })
  // The second half of a link: the provider confirmed the identity; the user who started it, signed in, links it.
  .post('/:provider/link', validJson(socialLinkSchema), async (c) => {
    await requireSession(c);
    const provider = providerOr404(c);
    await confirmLink(c, provider.id, c.req.valid('json').state);
    return c.json({ data: { status: SOCIAL_STATUS.link, provider: provider.id } });
  })
  // A link stays removable after its provider is taken out of the configuration.
  .delete('/:provider', async (c) => {
    await requireSession(c);
    const providerId = c.req.param('provider');
    const accounts = socialAccountsOf(c.var.db, c.var.org.id);
    const account = await accounts.forUserAt(userIdOf(c), providerId);
    if (!account) throw notFound();
    await unlinkKeepingAMethod(c, userIdOf(c), account.id);
    await recordActivity(c, SOCIAL_ENTITY, account.id, 'delete', [{ field: account.provider, previous: accountLabel(account), next: null }]);
    return c.json({ data: { status: SOCIAL_STATUS.unlink, provider: account.provider } });
  });
