// A local OpenID Connect provider for social sign-in on a fresh machine (`npm start`, the browser tests):
// oauth2-mock-server on loopback with a real signing key. Its /authorize signs the visitor in at once as
// one local test person (no login screen), so "Continue with Local ID" works end to end without the network.
import { OAuth2Server } from 'oauth2-mock-server';

/** The person the local provider signs in: what its userinfo endpoint and ID tokens say. */
export const LOCAL_OIDC_PERSON = { sub: 'local-person-1', email: 'person@local.test', name: 'Local Person' };

/** The client credentials the worker is given for the local provider (any values work with the mock). */
export const LOCAL_OIDC_CLIENT = { id: 'relay-local', secret: 'relay-local-secret', name: 'Local ID' };

/** The default behaviour: every sign-in is `person` (userinfo and ID token alike). */
function signInAs(person) {
  return (service) => {
    service.on('beforeUserinfo', (response) => {
      response.body = { ...person, email_verified: true };
    });
    service.on('beforeTokenSigning', (token) => {
      Object.assign(token.payload, { sub: person.sub, email: person.email, name: person.name });
    });
  };
}

/**
 * Starts the provider on 127.0.0.1:<port> (0 = a free port). `install(service)` replaces the default handlers
 * (sign in as `person`) for a caller that decides who signs in itself. Returns { issuer, port, close }.
 */
export async function startOidcProvider({ port = 0, person = LOCAL_OIDC_PERSON, install = signInAs(person) } = {}) {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  install(server.service);
  await server.start(port, '127.0.0.1');
  const address = server.address();
  const issuer = `http://127.0.0.1:${address.port}`;
  // The mock names itself by the host it was started on; tokens and discovery must use the same URL.
  server.issuer.url = issuer;
  return { issuer, port: address.port, close: () => (server.listening ? server.stop() : Promise.resolve()) };
}

/** The worker vars that offer the provider (by default the local one) as the generic OIDC sign-in. */
export function oidcProviderVars(issuer, client = LOCAL_OIDC_CLIENT) {
  return {
    OAUTH_OIDC_ISSUER: issuer,
    OAUTH_OIDC_CLIENT_ID: client.id,
    OAUTH_OIDC_CLIENT_SECRET: client.secret,
    OAUTH_OIDC_NAME: client.name,
  };
}
