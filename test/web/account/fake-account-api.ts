import type { ApiKeyRow, SessionRow } from '@shared/contracts/account';
import type { ActivityLogEntry } from '@shared/contracts/activity-log';
import { ORG_KEY_MESSAGES, type OrgKeyRow } from '@shared/contracts/org-api-key';
import type { SocialProviderView } from '@shared/contracts/social';
import { MESSAGES } from '@shared/messages';
import { fakeApi, USER } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';

const NOW = '2026-11-01T10:00:00.000Z';
/** The password the fake user has (when has_password). */
export const CURRENT_PASSWORD = 'Secret1!';

export interface FakeAccountOptions {
  demo?: boolean;
  hasPassword?: boolean;
  /** Removing the password is refused (no other login method). */
  lastMethod?: boolean;
  apiKeys?: ApiKeyRow[];
  /** The organisation's API keys (GET /organization-api-key). */
  orgKeys?: OrgKeyRow[];
  /** The activity log's rows (GET /activity-log, one page). */
  activityLog?: ActivityLogEntry[];
  sessions?: SessionRow[];
  social?: SocialProviderView[];
  /** Answers every write of the account area with 403 demo_locked (as the server does in the demo). */
  locked?: boolean;
}

export const SESSIONS: SessionRow[] = [
  {
    id: 'sess-current',
    device: 'Firefox on Linux',
    user_agent: 'Mozilla/5.0 (X11; Linux) Firefox/140',
    ip: '10.0.0.1',
    expires_at: '2026-12-01T10:00:00.000Z',
    refreshes_at: '2026-11-01T10:15:00.000Z',
    created_at: NOW,
    updated_at: NOW,
    current: true,
    loggedIn: true,
  },
  {
    id: 'sess-phone',
    device: null,
    user_agent: 'Mozilla/5.0 (iPhone) Safari/605',
    ip: '10.0.0.2',
    expires_at: '2026-12-02T10:00:00.000Z',
    refreshes_at: null,
    created_at: NOW,
    updated_at: NOW,
    current: false,
    loggedIn: false,
  },
  {
    id: 'sess-office',
    device: 'Chrome on Windows',
    user_agent: 'Mozilla/5.0 (Windows) Chrome/130',
    ip: '10.0.0.3',
    expires_at: '2026-12-03T10:00:00.000Z',
    refreshes_at: null,
    created_at: NOW,
    updated_at: NOW,
    current: false,
    loggedIn: false,
  },
];

export const SOCIAL: SocialProviderView[] = [
  { id: 'google', name: 'Google', linked: false, account: null },
  { id: 'github', name: 'GitHub', linked: true, account: 'ann@github.test' },
];

const invalid = (fields: Record<string, string[]>) => json(422, { error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields } });
const rows = <T>(items: T[]) => json(200, { items, meta: { total: items.length, page: 1, page_size: items.length, total_pages: 1 } });
const locked = () => json(403, { error: { code: 'demo_locked', message: MESSAGES.demoLocked } });

/** The shell's fake API plus an in-memory account area: profile, password, organisation, social, API key, sessions. */
export function fakeAccountApi(options: FakeAccountOptions = {}) {
  const base = fakeApi();
  const state = {
    user: { ...USER, has_password: options.hasPassword ?? true },
    organization: { ...USER.organization },
    apiKeys: (options.apiKeys ?? []).map((row) => ({ ...row })),
    orgKeys: (options.orgKeys ?? []).map((row) => ({ ...row })),
    sessions: (options.sessions ?? SESSIONS).map((row) => ({ ...row })),
    social: (options.social ?? SOCIAL).map((row) => ({ ...row })),
    password: CURRENT_PASSWORD as string | null,
    deleted: false,
    keySeq: 0,
  };
  if (!state.user.has_password) state.password = null;

  const handle = async (call: FetchCall): Promise<Response | null> => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (path === '/init/guest') {
      const answer = (await (await base.fn(call.url, { method: 'GET', headers: call.headers })).json()) as {
        data: { settings: Record<string, unknown>; social_providers: unknown[] };
      };
      answer.data.settings.demo = options.demo ?? false;
      answer.data.social_providers = state.social.map(({ id, name }) => ({ id, name }));
      return json(200, answer);
    }
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/internal-user/me') return json(200, { data: state.user });
    const write = call.method !== 'GET';
    const account =
      path.startsWith('/internal-user/') ||
      ['/organization', '/social', '/internal-api-key', '/organization-api-key', '/session'].some((p) => path === p || path.startsWith(`${p}/`));
    if (account && write && options.locked) return locked();

    const id = state.user.id;
    if (path === `/internal-user/${id}` && call.method === 'PUT') {
      const name = String(body.name ?? '').trim();
      const field = body.email !== undefined ? 'email' : 'username';
      const login = String(body.email ?? body.username ?? '').trim();
      const problems: Record<string, string[]> = {};
      if (!name) problems.name = [MESSAGES.required];
      if (!login) problems[field] = [MESSAGES.required];
      else if (login === 'bob') problems[field] = [MESSAGES.duplicate];
      if (Object.keys(problems).length) return invalid(problems);
      state.user = { ...state.user, name, username: login.toLowerCase(), email: field === 'email' ? login : state.user.email };
      return json(200, { data: state.user });
    }
    if (path === `/internal-user/${id}/password` && call.method === 'PUT') {
      if (state.password) {
        if (!body.current_password) return invalid({ current_password: [MESSAGES.required] });
        if (body.current_password !== state.password) {
          return json(422, {
            error: { code: 'current_password_wrong', message: MESSAGES.currentPasswordWrong, fields: { current_password: [MESSAGES.currentPasswordWrong] } },
          });
        }
      }
      state.password = String(body.password);
      state.user = { ...state.user, has_password: true };
      return json(200, { data: state.user });
    }
    if (path === `/internal-user/${id}/password` && call.method === 'DELETE') {
      if (options.lastMethod) return json(409, { error: { code: 'last_login_method', message: MESSAGES.lastLoginMethod } });
      state.password = null;
      state.user = { ...state.user, has_password: false };
      return json(200, { data: state.user });
    }
    if (path === `/internal-user/${id}` && call.method === 'DELETE') {
      if (String(body.confirm ?? '').toLowerCase() !== state.user.username) return invalid({ confirm: ['Type your login exactly as shown to confirm'] });
      state.deleted = true;
      return json(200, { data: { deleted: true, organization_deleted: false } });
    }
    if (path === '/organization' && call.method === 'GET') return json(200, { data: state.organization });
    if (path === '/organization' && call.method === 'PUT') {
      const name = String(body.name ?? '').trim();
      if (!name) return invalid({ name: [MESSAGES.required] });
      state.organization = { ...state.organization, name };
      return json(200, { data: state.organization });
    }
    if (path === '/social' && call.method === 'GET') return json(200, { data: state.social });
    const authorize = /^\/social\/([\w-]+)\/authorize$/.exec(path);
    if (authorize && call.method === 'POST') {
      return json(200, { data: { url: `https://idp.example.test/authorize?provider=${authorize[1]}&action=${String(body.action)}&state=st-${authorize[1]}` } });
    }
    // Link confirmation: `verified-<provider>` is a state the provider verified for this user; `taken-state` an
    // identity linked to someone else; anything else is refused like the server refuses it.
    const link = /^\/social\/([\w-]+)\/link$/.exec(path);
    if (link && call.method === 'POST') {
      if (body.state === 'taken-state') return json(409, { error: { code: 'social_already_linked', message: MESSAGES.socialAlreadyLinked } });
      const found = state.social.find((s) => s.id === link[1]);
      if (!found || body.state !== `verified-${link[1]}`) return json(400, { error: { code: 'link_invalid', message: MESSAGES.socialStateInvalid } });
      found.linked = true;
      found.account = `ann@${link[1]}.test`;
      return json(200, { data: { status: 'social-link', provider: link[1] } });
    }
    const social = /^\/social\/([\w-]+)$/.exec(path);
    if (social && call.method === 'DELETE') {
      const found = state.social.find((s) => s.id === social[1] && s.linked);
      if (!found) return json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
      if (!state.password && state.social.filter((s) => s.linked).length === 1)
        return json(409, { error: { code: 'last_login_method', message: MESSAGES.lastLoginMethod } });
      found.linked = false;
      found.account = null;
      return json(200, { data: { deleted: 1 } });
    }
    if (path === '/internal-api-key' && call.method === 'GET') return rows(state.apiKeys);
    if (path === '/internal-api-key' && call.method === 'POST') {
      if (state.apiKeys.length) return json(409, { error: { code: 'api_key_exists', message: MESSAGES.apiKeyExists } });
      const row: ApiKeyRow = { id: 31, name: `key-${++state.keySeq}`, note: (body.note as string | null) ?? null, created_at: NOW, updated_at: NOW };
      state.apiKeys.push(row);
      return json(201, { data: { ...row, key: `secret-key-${state.keySeq}` } });
    }
    const key = /^\/internal-api-key\/(\d+)(\/regenerate)?$/.exec(path);
    const keyRow = key ? state.apiKeys.find((row) => row.id === Number(key[1])) : undefined;
    if (key && !keyRow) return json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
    if (keyRow && key?.[2] && call.method === 'POST') {
      keyRow.name = `key-${++state.keySeq}`;
      return json(200, { data: { ...keyRow, key: `secret-key-${state.keySeq}` } });
    }
    if (keyRow && call.method === 'PUT') {
      keyRow.note = (body.note as string | null) ?? null;
      return json(200, { data: keyRow });
    }
    if (keyRow && call.method === 'DELETE') {
      state.apiKeys = state.apiKeys.filter((row) => row !== keyRow);
      return json(200, { data: { deleted: 1 } });
    }
    if (path === '/activity-log' && call.method === 'GET') return rows(options.activityLog ?? []);
    if (path === '/organization-api-key' && call.method === 'GET') return rows(state.orgKeys);
    if (path === '/organization-api-key' && call.method === 'POST') {
      const name = String(body.name ?? '').trim();
      if (!name) return invalid({ name: [MESSAGES.required] });
      if (body.test === true && body.scope === 'full') return invalid({ scope: [ORG_KEY_MESSAGES.testScope] });
      const seq = ++state.keySeq;
      const prefix = `${body.test ? 'rk_test_' : 'rk_live_'}Key${seq}xx`;
      const row: OrgKeyRow = {
        id: 100 + seq,
        name,
        scope: body.scope as OrgKeyRow['scope'],
        test: body.test === true,
        prefix,
        created_by: { id: state.user.id, name: state.user.name },
        last_used_at: null,
        revoked_at: null,
        created_at: NOW,
        updated_at: NOW,
      };
      state.orgKeys.unshift(row);
      return json(201, { data: { ...row, key: `${prefix}${'s'.repeat(34)}` } });
    }
    const orgKey = /^\/organization-api-key\/(\d+)$/.exec(path);
    if (orgKey && call.method === 'DELETE') {
      const found = state.orgKeys.find((row) => row.id === Number(orgKey[1]));
      if (!found) return json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
      found.revoked_at ??= '2026-11-02T09:00:00.000Z';
      return json(200, { data: found });
    }
    if (path === '/session' && call.method === 'GET') return rows(state.sessions);
    if (path === '/session' && call.method === 'DELETE') {
      const ids = body.ids as string[] | undefined;
      if (!Array.isArray(ids) || ids.length === 0) return invalid({ ids: [MESSAGES.requiredList] });
      const before = state.sessions.length;
      state.sessions = state.sessions.filter((row) => !ids.includes(row.id));
      return json(200, { data: { deleted: before - state.sessions.length } });
    }
    const one = /^\/session\/([\w-]+)$/.exec(path);
    if (one && call.method === 'DELETE') {
      const before = state.sessions.length;
      state.sessions = state.sessions.filter((row) => row.id !== one[1]);
      return state.sessions.length < before ? json(200, { data: { deleted: 1 } }) : json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
    }
    return null;
  };

  const mock = mockFetch(
    async (call) =>
      (await handle(call)) ??
      base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  /** Calls the console sent, by method and path (under /api/v1). */
  const sent = (method: string, path: string) =>
    mock.calls.filter((c) => c.method === method && new URL(c.url, 'http://acme.localhost').pathname === `/api/v1${path}`);
  return { ...mock, state, sent };
}
