import { exports } from 'cloudflare:workers';
import { call } from '../helpers';

// The social sign-in dance as a browser does it: ask our API for the provider URL, follow it at the real mock
// provider (which redirects straight back with a code), then open our callback on the platform host.

export const PROVIDER = 'oidc';
export const DEVICE = 'test-device-fingerprint';

/** POST /social/{provider}/authorize on the organisation's host. */
export function authorize(org: string, action: string, init: { token?: string; provider?: string; headers?: Record<string, string> } = {}) {
  return call(org, `/api/v1/social/${init.provider ?? PROVIDER}/authorize`, {
    method: 'POST',
    json: { action },
    token: init.token,
    headers: { 'x-device': DEVICE, ...init.headers },
  });
}

/** The provider URL our authorize call answered (asserting it succeeded). */
export async function providerUrl(org: string, action: string, token?: string): Promise<URL> {
  const res = await authorize(org, action, { token });
  if (res.status !== 200) throw new Error(`authorize failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { data: { url: string } };
  return new URL(body.data.url);
}

/** Signs in at the mock provider as `subject` and returns where it sends the browser back (our callback URL). */
export async function atProvider(url: URL, subject: string): Promise<URL> {
  const visit = new URL(url);
  visit.searchParams.set('login_hint', subject);
  const res = await fetch(visit, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`provider did not redirect: ${res.status} ${await res.text()}`);
  return new URL(location);
}

/** Opens a callback URL on the bare platform host, as the browser would. */
export function openCallback(url: URL | string): Promise<Response> {
  const target = new URL(url);
  return exports.default.fetch(new Request(target, { headers: { host: target.host }, redirect: 'manual' }));
}

/** The whole flow for `subject`: authorize, provider, callback. Returns the callback's answer and its Location. */
export async function socialFlow(org: string, action: 'login' | 'link', subject: string, token?: string) {
  const callback = await atProvider(await providerUrl(org, action, token), subject);
  const res = await openCallback(callback);
  const location = res.headers.get('location');
  return { res, callback, location: location ? new URL(location) : null };
}

/** The `data` of a JSON answer, typed by the caller. */
export async function dataOf<T>(res: Response): Promise<T> {
  return ((await res.json()) as { data: T }).data;
}

/** POST /social/{provider}/link {state}: the console confirming a link the provider verified. */
export function confirmLink(org: string, state: unknown, init: { token?: string; provider?: string; headers?: Record<string, string> } = {}) {
  return call(org, `/api/v1/social/${init.provider ?? PROVIDER}/link`, { method: 'POST', json: { state }, token: init.token, headers: init.headers });
}

/**
 * A whole link as the console does it: the flow, then (when the callback reported no error) the confirmation
 * with the state from the callback's redirect and the same session. `confirm` is that answer, or null.
 */
export async function linkFlow(org: string, subject: string, token: string) {
  const flow = await socialFlow(org, 'link', subject, token);
  const state = flow.location?.searchParams.get('state') ?? null;
  const failed = !flow.location || flow.location.searchParams.has('error');
  const confirm = !failed && state ? await confirmLink(org, state, { token }) : null;
  return { ...flow, state, confirm };
}
