import { eq } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import type { AppEnv, Organization } from '../context';
import type { Database } from '../db/client';
import { organizations } from '../db/schema';
import { ApiError } from '../lib/api-error';
import { organizationsByLabel } from './org-cache';
import { MESSAGES } from '../shared/messages';
import { orgLabelFromHost } from '../shared/tenant-host';
import { DEMO_ORG_DOMAIN } from '../shared/org-domain';
import { ensureDemoOrganization } from '../modules/demo/reset';

export { orgLabelFromHost };

/** The organisation a request is for: from the host, else (API-key calls, the log call) the X-ORG header. */
export function orgLabelOf(host: string | undefined, xOrg: string | undefined): string | null {
  const fromHost = orgLabelFromHost(host);
  const fromHeader = xOrg?.trim().toLowerCase() || null;
  if (fromHost && fromHeader && fromHost !== fromHeader) {
    throw new ApiError(400, 'bad_request', 'X-ORG does not match the organisation of this host');
  }
  return fromHost ?? fromHeader;
}

export async function findOrganization(db: Database, label: string): Promise<Organization | null> {
  const cached = organizationsByLabel.get(label);
  if (cached) return cached;
  const rows = await db
    .select({ id: organizations.id, name: organizations.name, domain: organizations.domain })
    .from(organizations)
    .where(eq(organizations.domain, label))
    .limit(1);
  if (rows[0]) organizationsByLabel.set(label, rows[0]);
  return rows[0] ?? null;
}

/** Like findOrganization, but the shared demo is created (and seeded) on first use, so demo.localhost just works. */
export async function resolveOrganization(db: Database, label: string): Promise<Organization | null> {
  const org = await findOrganization(db, label);
  return org ?? (label === DEMO_ORG_DOMAIN ? ensureDemoOrganization(db) : null);
}

/** Resolves the organisation once per request; unknown or missing is a 404, and nothing below runs. */
export const tenant = createMiddleware<AppEnv>(async (c, next) => {
  const label = orgLabelOf(c.req.header('host'), c.req.header('x-org'));
  // The bare platform host (sign-up, pre-registration pages) loads the guest init without an organisation.
  if (!label && c.req.method === 'GET' && c.req.path === '/api/v1/init/guest') return next();
  const org = label && /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label) ? await resolveOrganization(c.var.db, label) : null;
  if (!org) throw new ApiError(404, 'org_not_found', MESSAGES.orgNotFound);
  c.set('org', org);
  await next();
});
