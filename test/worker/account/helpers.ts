import { env, exports } from 'cloudflare:workers';
import { hashPassword } from '../../../src/lib/password';
import { sha256Hex, signAccessToken } from '../../../src/lib/tokens';
import { PASSWORD } from '../helpers';

/** Adds another user to an organisation; `password: null` makes a social-only user. */
export async function addUser(orgId: number, username: string, password: string | null = PASSWORD): Promise<number> {
  const row = await env.DB.prepare('INSERT INTO users (org_id, name, username, email, password_hash) VALUES (?, ?, ?, ?, ?) RETURNING id')
    .bind(orgId, `${username} name`, username, username.includes('@') ? username : null, password ? await hashPassword(password) : null)
    .first<{ id: number }>();
  return row!.id;
}

/** Links a social account to a user, as the social module would. */
export async function linkSocial(orgId: number, userId: number, provider = 'github') {
  await env.DB.prepare('INSERT INTO social_accounts (org_id, user_id, provider, subject) VALUES (?, ?, ?, ?)')
    .bind(orgId, userId, provider, `${provider}-${userId}`)
    .run();
}

/**
 * POST /internal-user/password-remind on an organisation's host, waiting also for the work the route leaves
 * to run after its answer (waitUntil: the lookup, the code and the mail), so a test can check what was sent.
 */
export async function remindAndSettle(org: string, email: unknown): Promise<Response> {
  const { buildApp } = await import('../../../src/app');
  const background: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void background.push(p), passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  const req = new Request(`http://${org}.localhost:8787/api/v1/internal-user/password-remind`, {
    method: 'POST',
    headers: { host: `${org}.localhost:8787`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  const res = await buildApp().fetch(req, env, ctx);
  await Promise.all(background);
  return res;
}

/** A request on the bare host (no organisation in it), as an API client sends one: X-ORG names the org. */
export function bareHostCall(path: string, init: RequestInit & { json?: unknown; xOrg?: string; apiKey?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('host', 'localhost:8787');
  if (init.xOrg) headers.set('x-org', init.xOrg);
  if (init.apiKey) headers.set('x-api-key', init.apiKey);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return exports.default.fetch(new Request(`http://localhost:8787${path}`, { ...init, headers, body }));
}

/** The text of the newest system mail to an address, or null. */
export async function latestMail(to: string): Promise<string | null> {
  const row = await env.DB.prepare('SELECT text FROM system_mails WHERE to_address = ? ORDER BY id DESC LIMIT 1').bind(to).first<{ text: string }>();
  return row?.text ?? null;
}

/** How many system mails went to an address. */
export async function mailCount(to: string): Promise<number> {
  const row = await env.DB.prepare('SELECT count(*) AS n FROM system_mails WHERE to_address = ?').bind(to).first<{ n: number }>();
  return row!.n;
}

/** Activity-log rows of an organisation for one entity, oldest first. */
export async function activityOf(orgId: number, entity: string) {
  const { results } = await env.DB.prepare(
    'SELECT user_id, entity, entity_id, action, field, previous_value, new_value FROM activity_log WHERE org_id = ? AND entity = ? ORDER BY id',
  )
    .bind(orgId, entity)
    .all<{ user_id: number | null; entity: string; entity_id: number | null; action: string; field: string; previous_value: string | null; new_value: string | null }>();
  return results;
}

/** The reset code in the newest reset mail to an address. */
export async function resetCodeFrom(to: string): Promise<string> {
  const text = await latestMail(to);
  const match = /password-reset\?code=([\w%-]+)/.exec(text ?? '');
  if (!match) throw new Error(`no reset link in mail to ${to}: ${text}`);
  return decodeURIComponent(match[1]);
}

/** Parses a response body as JSON with a loose type, for assertions. */
export async function body(res: Response): Promise<any> {
  return res.json();
}

/** Opens a session directly, as social sign-in does for a user without a password; returns its access token. */
export async function sessionFor(orgId: number, userId: number): Promise<{ access_token: string; sessionId: string }> {
  const id = crypto.randomUUID();
  await env.DB.prepare('INSERT INTO sessions (id, org_id, user_id, auth_type_id, refresh_hash, expires_at) VALUES (?, ?, ?, 3, ?, ?)')
    .bind(id, orgId, userId, await sha256Hex(id), new Date(Date.now() + 3600_000).toISOString())
    .run();
  const access_token = await signAccessToken({ sub: String(userId), org: orgId, sid: id }, env.JWT_SECRET, 900);
  return { access_token, sessionId: id };
}
