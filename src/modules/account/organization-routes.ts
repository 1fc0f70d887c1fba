import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { organizations } from '../../db/schema';
import { requireSession } from '../../middleware/auth';
import { validJson } from '../../lib/validate';
import { organizationUpdateSchema, type OrganizationSettings } from '../../shared/contracts/account';
import { changedFields, recordActivity } from '../activity-log/record';
import { effectiveRetentionDays } from '../retention/policy';
import { forgetOrganizations } from '../../middleware/org-cache';

const COLUMNS = {
  id: organizations.id,
  name: organizations.name,
  domain: organizations.domain,
  track_opens: organizations.trackOpens,
  track_clicks: organizations.trackClicks,
  message_retention_days: organizations.messageRetentionDays,
  soft_bounce_limit: organizations.softBounceLimit,
  soft_bounce_days: organizations.softBounceDays,
};

type Row = Omit<OrganizationSettings, 'effective_retention_days'>;
const present = (env: Env, row: Row): OrganizationSettings => ({ ...row, effective_retention_days: effectiveRetentionDays(env, row.message_retention_days) });

async function readOrganization(db: Database, id: number): Promise<Row> {
  const [row] = await db.select(COLUMNS).from(organizations).where(eq(organizations.id, id));
  return row;
}

/** /organization: the current organisation (app.ts requires a signed-in caller): name, tracking defaults, message retention, soft-bounce rule. Its domain never changes. */
export const organizationRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json({ data: present(c.env, await readOrganization(c.var.db, c.var.org.id)) }))
  .put('/', requireSession, validJson(organizationUpdateSchema), async (c) => {
    const input = c.req.valid('json');
    const before = await readOrganization(c.var.db, c.var.org.id);
    const [after] = await c.var.db
      .update(organizations)
      .set({
        name: input.name,
        trackOpens: input.track_opens ?? before.track_opens,
        trackClicks: input.track_clicks ?? before.track_clicks,
        messageRetentionDays: input.message_retention_days === undefined ? before.message_retention_days : input.message_retention_days,
        softBounceLimit: input.soft_bounce_limit ?? before.soft_bounce_limit,
        softBounceDays: input.soft_bounce_days ?? before.soft_bounce_days,
        updatedAt: new Date().toISOString(),
      })
      .where(eq(organizations.id, before.id))
      .returning(COLUMNS);
    forgetOrganizations(); // its name is in the cached row
    const audited = ({ name, track_opens, track_clicks, message_retention_days, soft_bounce_limit, soft_bounce_days }: Row) => ({
      name,
      track_opens,
      track_clicks,
      message_retention_days,
      soft_bounce_limit,
      soft_bounce_days,
    });
    await recordActivity(c, 'organization', after.id, 'update', changedFields(audited(before), audited(after)));
    return c.json({ data: present(c.env, after) });
  });
