import { MESSAGES } from '@shared/messages';
import type { SignupStatus } from '@shared/contracts/signup';
import { json, mockFetch, type FetchCall } from './helpers';

export const ORG = { id: 2, name: 'Acme', domain: 'acme' };
export const USER = { id: 5, name: 'Ann Admin', username: 'ann', email: 'ann@acme.test', has_password: true, language: null, organization: ORG };

export interface IdentityApiOptions {
  /** null = the bare platform host. */
  organization?: typeof ORG | null;
  signupEnabled?: boolean;
  signupActive?: boolean;
  socialProviders?: { id: string; name: string }[];
  demo?: boolean;
  /** Sign-up price in cents published by the guest init; undefined leaves it out. */
  amount?: number;
  /** Extra answers checked before the built-in ones (return undefined to fall through). */
  handle?: (path: string, call: FetchCall) => Response | undefined;
}

const invalid = (fields: Record<string, string[]>) => json(422, { error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields } });

/** A fake worker API for the identity screens: guest init (platform or organisation host), sign-up, reset, social. */
export function identityApi(options: IdentityApiOptions = {}) {
  const organization = options.organization === undefined ? ORG : options.organization;
  const signups = new Map<
    string,
    { id: string; status: SignupStatus; amount: number; currency: string; email: string; domain: string; checkout_url: string }
  >();
  let paidAfterPolls = 0;
  const init = {
    password_config: { min_length: 6, is_upper_required: true, is_lower_required: true, is_number_required: true, extra_characters: '!=@-+#$%^&*{}_' },
    auth: { access_token_ttl: 900, refresh_token_ttl: 2592000, refresh_header: 'x-refresh' },
    auth_methods: [{ id: 1, name: 'password', details: { header: 'Authorization', prefix: 'Bearer' } }],
    organization,
    social_providers: options.socialProviders ?? [],
    api_docs_url: '/api/swagger-ui',
    settings: {
      name: organization?.name ?? 'Relay',
      env: 'production',
      'signin.mode': 'simple',
      'signup.enabled': options.signupEnabled ?? true,
      'signup.active': options.signupActive ?? true,
      'signup.applicationUrl': 'http://localhost:8787/signup',
      languages: ['en'],
      demo: options.demo ?? false,
      'demo.reset_length': 6,
      'signup.amount': options.amount ?? 2900,
      'signup.currency': 'usd',
    },
  };

  const handle = (call: FetchCall): Response => {
    const url = new URL(call.url, 'http://localhost');
    const path = url.pathname.replace('/api/v1', '');
    const body = (call.body ?? {}) as Record<string, any>;
    const extra = options.handle?.(path, call);
    if (extra) return extra;
    if (path === '/init/guest') return json(200, { data: init });
    if (path === '/log') return json(201, { data: { id: 1 } });
    if (path === '/signup' && call.method === 'POST') {
      if (!organization && body.organization?.domain === 'taken') return invalid({ 'organization.domain': [MESSAGES.duplicate] });
      if (body.user?.email === 'used@x.test') return invalid({ 'user.email': [MESSAGES.duplicate] });
      const id = `s${signups.size + 1}`;
      const view = {
        id,
        status: 'pending' as const,
        amount: 2900,
        currency: 'usd',
        email: body.user.email,
        domain: body.organization.domain,
        checkout_url: `http://localhost:8787/signup/checkout/${id}`,
      };
      signups.set(id, view);
      return json(201, { data: view });
    }
    const signup = /^\/signup\/([^/]+)(\/test-payment)?$/.exec(path);
    if (signup) {
      const view = signups.get(signup[1]);
      if (!view) return json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
      if (signup[2] && call.method === 'POST') {
        view.status = 'paid';
        return json(200, { data: view });
      }
      if (view.status === 'pending' && paidAfterPolls > 0 && --paidAfterPolls === 0) view.status = 'paid';
      return json(200, { data: view });
    }
    if (path === '/pre-registration') {
      if (!String(body.comments ?? '').trim()) return invalid({ comments: [MESSAGES.required] });
      return json(201, { data: { id: 1 } });
    }
    if (path === '/internal-user/password-remind') {
      if (!String(body.email ?? '').trim()) return invalid({ email: [MESSAGES.required] });
      return json(200, { data: { message: MESSAGES.resetRequested } });
    }
    if (path === '/internal-user/password-reset') {
      if (body.code !== 'good-code') return json(400, { error: { code: 'link_invalid', message: MESSAGES.resetLinkInvalid } });
      if (body.password === 'weakpass') return invalid({ password: [MESSAGES.passwordUppercase] });
      return json(200, { data: { ok: true } });
    }
    if (path === '/internal-user/sign-complete') {
      if (body.code !== 'complete-1') return json(400, { error: { code: 'link_invalid', message: MESSAGES.signCompleteInvalid } });
      return json(200, { access_token: 'acc', refresh_token: 'ref', expires_in: 900, auth_type_id: 1 });
    }
    const social = /^\/social\/([^/]+)\/authorize$/.exec(path);
    if (social) return json(200, { data: { url: `https://provider.test/${social[1]}/auth?state=xyz` } });
    // Ending a session by its own access token (a refused social sign-in does this with the URL's token).
    if (path === '/internal-auth/logout' && call.method === 'POST') return json(200, { data: { ok: true } });
    if (path === '/internal-auth/token-refresh') {
      // Only the refresh token that travelled in the social callback URL may be rotated, once.
      if (call.headers['x-refresh'] !== 'url-refresh') return json(401, { error: { code: 'unauthorized', message: MESSAGES.unauthorized } });
      return json(200, { access_token: 'acc', refresh_token: 'rotated', expires_in: 900, auth_type_id: 3 });
    }
    if (path === '/demo') {
      if (!init.settings.demo) return json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
      return json(200, {
        data: {
          reset_length: 6,
          reset_at: '2026-11-01T06:00:00.000Z',
          next_reset_at: '2026-11-01T12:00:00.000Z',
          login: 'demo@demo.test',
          password: 'Demo-2026!',
        },
      });
    }
    // The social callback's access token is valid too: rotation must happen because the page asks for it, not after a 401.
    if (call.headers.authorization !== 'Bearer acc' && call.headers.authorization !== 'Bearer url-access')
      return json(401, { error: { code: 'unauthorized', message: MESSAGES.unauthorized } });
    if (path === '/internal-user/me') return json(200, { data: USER });
    return json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
  };

  const mock = mockFetch(handle);
  return {
    ...mock,
    signups,
    /** The next n polls of a pending sign-up stay pending; the n-th marks it paid (the webhook arriving late). */
    payAfterPolls: (n: number) => {
      paidAfterPolls = n;
    },
    callsTo: (path: string) => mock.calls.filter((c) => new URL(c.url, 'http://localhost').pathname === `/api/v1${path}`),
  };
}
