// A real OpenID Connect provider on loopback for the social sign-in tests (oauth2-mock-server, in the vitest
// main process). test/vitest.worker.config.ts starts it and hands its issuer to the worker; this file is also
// a vitest global setup whose teardown stops it when the run ends.
//
// Its /authorize signs the visitor in at once. The test picks who: `login_hint=<subject>` on the authorize URL
// becomes the `sub` the userinfo endpoint reports for that code's access token (email <subject>@mock.test,
// name "Mock <subject>"); `login_hint=deny` answers error=access_denied instead of a code.
import { oidcProviderVars, startOidcProvider } from '../../../scripts/oidc-provider.mjs';

const HANDLE = Symbol.for('relay.test.social-mock-provider');

/** The client credentials and name the worker is given for the mock (any values work with it). */
export const MOCK_CLIENT = { id: 'relay-test-client', secret: 'relay-test-secret', name: 'Mock ID' };

/** Starts the provider on 127.0.0.1 (a free port) and returns the worker vars that offer it as the generic OIDC provider. */
export async function startMockProvider() {
  const provider = await startOidcProvider({ install: signInByHint });
  globalThis[HANDLE] = provider;
  return oidcProviderVars(provider.issuer, MOCK_CLIENT);
}

/** The mock's handlers: `login_hint` picks the subject of the code, its token and the userinfo answer. */
function signInByHint(service) {
  /** @type {Map<string, string>} */
  const subjectOfCode = new Map();
  /** @type {Map<string, string>} */
  const subjectOfToken = new Map();

  service.on('beforeAuthorizeRedirect', (redirect, req) => {
    const hint = typeof req.query?.login_hint === 'string' && req.query.login_hint ? req.query.login_hint : 'johndoe';
    const code = redirect.url.searchParams.get('code');
    if (hint === 'deny') {
      redirect.url.searchParams.delete('code');
      redirect.url.searchParams.set('error', 'access_denied');
    } else if (code) {
      subjectOfCode.set(code, hint);
    }
  });
  service.on('beforeResponse', (response, req) => {
    const subject = typeof req.body?.code === 'string' ? subjectOfCode.get(req.body.code) : undefined;
    if (subject && typeof response.body.access_token === 'string') subjectOfToken.set(response.body.access_token, subject);
  });
  service.on('beforeUserinfo', (response, req) => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const subject = token ? subjectOfToken.get(token) : undefined;
    if (!subject) {
      response.statusCode = 401;
      response.body = { error: 'invalid_token' };
      return;
    }
    response.body = { sub: subject, email: `${subject}@mock.test`, email_verified: true, name: `Mock ${subject}` };
  });
}

/** Global setup: nothing to start (the config did); the teardown stops the provider. */
export default function setup() {
  return async () => {
    const provider = globalThis[HANDLE];
    delete globalThis[HANDLE];
    await provider?.close();
  };
}
