import type { Tag } from '@shared/contracts/tag';
import { MESSAGES } from '@shared/messages';
import { BULK_DELETE_MESSAGES } from '@shared/list';
import { json, mockFetch, type FetchCall } from './helpers';

export const USER = {
  id: 5,
  name: 'Ann Admin',
  username: 'ann',
  email: 'ann@acme.test',
  has_password: true,
  language: null,
  organization: { id: 2, name: 'Acme', domain: 'acme' },
};

const GUEST_INIT = {
  password_config: { min_length: 6, is_upper_required: true, is_lower_required: true, is_number_required: true, extra_characters: '!=@-+#$%^&*{}_' },
  auth: { access_token_ttl: 900, refresh_token_ttl: 2592000, refresh_header: 'x-refresh' },
  auth_methods: [{ id: 1, name: 'password', details: { header: 'Authorization', prefix: 'Bearer' } }],
  organization: USER.organization,
  social_providers: [],
  api_docs_url: '/api/swagger-ui',
  settings: {
    name: 'Acme',
    env: 'production',
    'signin.mode': 'simple',
    'signup.enabled': true,
    'signup.active': true,
    'signup.applicationUrl': 'http://localhost:8787/signup',
    'signup.amount': 2900,
    'signup.currency': 'usd',
    languages: ['en'],
    demo: false,
    'demo.reset_length': 24,
  },
};

const invalid = (fields: Record<string, string[]>) => json(422, { error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields } });

/** An in-memory stand-in for the worker's API (init, auth, tags), answering the mocked fetch. */
export function fakeApi(options: { orgMissing?: boolean; tags?: string[]; settings?: Record<string, unknown>; language?: string | null } = {}) {
  let nextId = 1;
  const now = '2026-11-01T10:00:00.000Z';
  let tags: Tag[] = (options.tags ?? []).map((name, i) => ({ id: nextId++, name, priority: i + 1, created_at: now, updated_at: now }));

  const handle = (call: FetchCall) => {
    const url = new URL(call.url, 'http://acme.localhost');
    // Whatever API path the runtime settings name (/api/v1 unless a test moves it).
    const path = url.pathname.replace(/^\/api\/v\d+/, '');
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (options.orgMissing) return json(404, { error: { code: 'org_not_found', message: MESSAGES.orgNotFound } });
    if (path === '/init/guest') return json(200, { data: { ...GUEST_INIT, settings: { ...GUEST_INIT.settings, ...options.settings } } });
    if (path === '/internal-auth/token-create') {
      if (body.username === 'ann' && body.password === 'Secret1!')
        return json(200, { access_token: 'acc', refresh_token: 'ref', expires_in: 900, auth_type_id: 1 });
      return json(401, { error: { code: 'invalid_credentials', message: MESSAGES.loginFailed } });
    }
    if (path === '/log') return json(201, { data: { id: 1 } });
    if (call.headers.authorization !== 'Bearer acc') return json(401, { error: { code: 'unauthorized', message: MESSAGES.unauthorized } });
    if (path === '/internal-auth/logout') return json(200, { data: { ok: true } });
    if (path === '/internal-user/me') return json(200, { data: { ...USER, language: options.language ?? null } });
    if (path === `/internal-user/${USER.id}/language` && call.method === 'PUT') {
      options.language = String(body.language);
      return json(200, { data: { ...USER, language: options.language } });
    }
    if (path === '/tag' && call.method === 'GET') {
      const search = url.searchParams.get('search')?.toLowerCase();
      const key = (url.searchParams.get('sort_by') ?? 'priority') as keyof Tag;
      const dir = url.searchParams.get('sort_order') === 'desc' ? -1 : 1;
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('page_size') ?? 10);
      const rows = tags.filter((t) => !search || t.name.toLowerCase().includes(search)).sort((a, b) => (a[key] < b[key] ? -dir : a[key] > b[key] ? dir : 0));
      return json(200, {
        items: rows.slice((page - 1) * size, page * size),
        meta: { total: rows.length, page, page_size: size, total_pages: Math.ceil(rows.length / size) },
      });
    }
    if (path === '/tag' && call.method === 'POST') {
      const name = String(body.name ?? '').trim();
      if (!name) return invalid({ name: [MESSAGES.required] });
      if (tags.some((t) => t.name === name)) return invalid({ name: [MESSAGES.duplicate] });
      const tag = { id: nextId++, name, priority: Math.max(0, ...tags.map((t) => t.priority)) + 1, created_at: now, updated_at: now };
      tags.push(tag);
      return json(201, { data: tag });
    }
    if (path === '/tag' && call.method === 'DELETE') {
      // As the server does it: ids, or "all" one page of matches at a time; neither is a 422.
      const ids = body.ids as number[] | undefined;
      if (!ids && body.all !== true) return invalid({ ids: [BULK_DELETE_MESSAGES.noTarget] });
      const search = (body.search as string | undefined)?.toLowerCase();
      const matching = tags.filter((t) => (ids ? ids.includes(t.id) : !search || t.name.toLowerCase().includes(search)));
      const size = ids ? matching.length : Number(body.page_size ?? 100);
      const doomed = new Set(matching.slice(0, size));
      tags = tags.filter((t) => !doomed.has(t));
      return json(200, { data: { deleted: doomed.size, more: matching.length > size } });
    }
    if (path === '/tag/priorities') {
      const ids = body.ids as number[];
      const slots = tags
        .filter((t) => ids.includes(t.id))
        .map((t) => t.priority)
        .sort((a, b) => a - b);
      ids.forEach((id, i) => {
        tags.find((t) => t.id === id)!.priority = slots[i];
      });
      return json(200, { data: { updated: ids.length } });
    }
    const match = /^\/tag\/(\d+)$/.exec(path);
    const tag = match ? tags.find((t) => t.id === Number(match[1])) : undefined;
    if (match && !tag) return json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
    if (tag && call.method === 'GET') return json(200, { data: tag });
    if (tag && call.method === 'PUT') {
      const name = String(body.name ?? '').trim();
      if (!name) return invalid({ name: [MESSAGES.required] });
      tag.name = name;
      return json(200, { data: tag });
    }
    if (tag && call.method === 'DELETE') {
      tags = tags.filter((t) => t !== tag);
      return json(200, { data: { deleted: 1 } });
    }
    return json(404, { error: { code: 'not_found', message: MESSAGES.notFound } });
  };

  const mock = mockFetch(handle);
  return { ...mock, tags: () => tags };
}
