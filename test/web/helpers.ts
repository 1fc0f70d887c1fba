import { vi } from 'vitest';
import { createServices, type Services, type ServicesOptions } from '../../web/src/lib/services';
import { memoryStorage, type KeyValueStorage } from '../../web/src/lib/storage';

/** One recorded fetch call. */
export interface FetchCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

type Handler = (call: FetchCall, index: number) => Response | Promise<Response>;

/** A JSON response with the x-version header every API answer carries. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-version': '1.0.0', ...headers },
  });
}

/** A fetch stand-in that records calls and answers with `handler`. */
export function mockFetch(handler: Handler) {
  const calls: FetchCall[] = [];
  const fn = vi.fn(async (url: string, init: RequestInit) => {
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) headers[key.toLowerCase()] = value;
    const call: FetchCall = {
      url,
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    return handler(call, calls.length - 1);
  });
  return { fn, calls };
}

export interface TestServices extends Services {
  storage: KeyValueStorage;
  navigate: ReturnType<typeof vi.fn>;
  reload: ReturnType<typeof vi.fn>;
}

/** Services wired as in the browser, with a mocked fetch, memory storage and recorded navigation. */
export function makeServices(fetchFn: ServicesOptions['fetch'], overrides: Partial<ServicesOptions> = {}): TestServices {
  const storage = overrides.storage ?? memoryStorage();
  const navigate = vi.fn(overrides.navigate ?? (() => undefined));
  const reload = vi.fn(overrides.reload ?? (() => undefined));
  const services = createServices({
    storage,
    fetch: fetchFn,
    language: () => 'de',
    currentUrl: () => 'http://acme.localhost:8787/tag?x=1',
    host: () => 'acme.localhost:8787',
    userAgent: () => 'test-agent',
    appName: 'relay-console',
    appVersion: '9.9.9',
    baseUrl: '/api/v1',
    logUrl: '/api/v1/log',
    env: 'production',
    pollMs: 100,
    refreshThresholdMs: 30_000,
    ...overrides,
    navigate,
    reload,
  });
  return { ...services, storage, navigate, reload };
}

/** Stores a signed-in session (as after sign-in) in storage and in the session. */
export function signIn(services: TestServices, tokens: { access?: string; refresh?: string; authTypeId?: number | null; expiresInSec?: number } = {}) {
  services.session.acceptTokens({
    access_token: tokens.access ?? 'access-1',
    refresh_token: tokens.refresh ?? 'refresh-1',
    expires_in: tokens.expiresInSec ?? 900,
    auth_type_id: tokens.authTypeId === null ? (undefined as unknown as number) : (tokens.authTypeId ?? 1),
  });
}

/** A TokenResponse body. */
export function tokenBody(access: string, refresh: string, authTypeId = 1, expiresIn = 900) {
  return { access_token: access, refresh_token: refresh, expires_in: expiresIn, auth_type_id: authTypeId };
}
