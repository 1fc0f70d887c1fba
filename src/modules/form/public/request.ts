import type { Context } from 'hono';
import type { AppEnv, Organization } from '../../../context';
import { orgOrigin } from '../../../lib/org-url';
import { resolveOrganization } from '../../../middleware/tenant';
import { orgLabelFromHost } from '../../../shared/tenant-host';

// What the public form endpoints read from a request: the organisation (from the host alone, as the tenant
// middleware decides it; never from the body or a header a page could set), the body within a size, the Origin.

type Ctx = Context<AppEnv>;

/** The organisation of the request's host, set on the context; null when the host names none. */
export async function hostOrganization(c: Ctx): Promise<Organization | null> {
  const label = orgLabelFromHost(c.req.header('host'));
  const org = label && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label) ? await resolveOrganization(c.var.db, label) : null;
  if (org) c.set('org', org);
  return org;
}

/** The body as text, or null when it is larger than `maxBytes` (refused unread: a declared length is trusted to say so first). */
export async function limitedBody(c: Ctx, maxBytes: number): Promise<string | null> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) return null;
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

/**
 * Whether the post's Origin is allowed: the organisation's own (its host as the platform names it, or the host the
 * request came to) or one of `allowed`. A missing Origin is accepted: browsers send it on every cross-site POST (so
 * an embed on a site not allowed is refused), and a script that leaves it out could as well have forged it; what
 * keeps scripts out is Turnstile and the limits, not this check. The opaque origin "null" (sandboxed frames, files)
 * is refused.
 */
export function originAllowed(c: Ctx, org: Organization, allowed: readonly string[]): boolean {
  const origin = c.req.header('origin');
  if (origin === undefined) return true;
  const own = [orgOrigin(c.env, org.domain), new URL(c.req.url).origin];
  const wanted = origin.trim().toLowerCase().replace(/\/+$/, '');
  return [...own, ...allowed].some((o) => o.toLowerCase().replace(/\/+$/, '') === wanted);
}
