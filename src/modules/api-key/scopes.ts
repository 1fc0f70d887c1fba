import type { OrgKeyAuth } from '../../context';
import { ApiError } from '../../lib/api-error';
import { ORG_KEY_MESSAGES, SEND_SCOPE_ROUTES } from '../../shared/contracts/org-api-key';

export { SEND_SCOPE_ROUTES };

const API_PREFIX = '/api/v1';
const READ_METHODS = new Set(['GET', 'HEAD']);

/** A request path relative to /api/v1, without a trailing slash. */
function apiPath(path: string): string {
  const relative = path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : path;
  return relative.length > 1 && relative.endsWith('/') ? relative.slice(0, -1) : relative;
}

/** Whether a method and path (full, /api/v1/...) is one of the calls a send-scoped key may make. */
export function isSendRoute(method: string, path: string): boolean {
  const relative = apiPath(path);
  return SEND_SCOPE_ROUTES.some((route) => route.method === method.toUpperCase() && route.path === relative);
}

/**
 * The one place an organisation key's scope is enforced (requireAuth runs it for every org-key call): `send` may
 * only make the calls of SEND_SCOPE_ROUTES, `read` only GET and HEAD, `full` whatever a personal key may (the
 * session-only routes still refuse it: it has no session). Anything else is a 403 with code `scope`.
 */
export function checkKeyScope(key: Pick<OrgKeyAuth, 'scope'>, method: string, path: string): void {
  if (key.scope === 'full') return;
  if (key.scope === 'read') {
    if (READ_METHODS.has(method.toUpperCase())) return;
    throw new ApiError(403, 'scope', ORG_KEY_MESSAGES.readScope);
  }
  if (!isSendRoute(method, path)) throw new ApiError(403, 'scope', ORG_KEY_MESSAGES.sendScope);
}
