import { env } from 'cloudflare:workers';
import { sha256Hex, signAccessToken } from '../../../src/lib/tokens';
import { appFetch, callHost, type CallInit, latestMail } from '../helpers';

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
export function remindAndSettle(org: string, email: unknown): Promise<Response> {
  const req = new Request(`http://${org}.localhost:8787/api/v1/internal-user/password-remind`, {
    method: 'POST',
    headers: { host: `${org}.localhost:8787`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  return appFetch(req, { settle: true });
}

/** A request on the bare host (no organisation in it), as an API client sends one: X-ORG names the org. */
export function bareHostCall(path: string, init: CallInit & { xOrg?: string; apiKey?: string } = {}) {
  const { xOrg, apiKey, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (xOrg) headers.set('x-org', xOrg);
  if (apiKey) headers.set('x-api-key', apiKey);
  return callHost('localhost:8787', path, { ...rest, headers });
}

/** Activity-log rows of an organisation for one entity, oldest first. */
export async function activityOf(orgId: number, entity: string) {
  const { results } = await env.DB.prepare(
    'SELECT user_id, entity, entity_id, action, field, previous_value, new_value FROM activity_log WHERE org_id = ? AND entity = ? ORDER BY id',
  )
    .bind(orgId, entity)
    .all<{
      user_id: number | null;
      entity: string;
      entity_id: number | null;
      action: string;
      field: string;
      previous_value: string | null;
      new_value: string | null;
    }>();
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
