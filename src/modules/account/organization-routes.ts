import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import type { Database } from '../../db/client';
import { organizations } from '../../db/schema';
import { requireSession } from '../../middleware/auth';
import { validJson } from '../../lib/validate';
import { organizationUpdateSchema, type OrganizationSettings } from '../../shared/contracts/account';
import { changedFields, recordActivity } from '../activity-log/record';

const COLUMNS = { id: organizations.id, name: organizations.name, domain: organizations.domain, track_opens: organizations.trackOpens, track_clicks: organizations.trackClicks };

async function readOrganization(db: Database, id: number): Promise<OrganizationSettings> {
  const [row] = await db.select(COLUMNS).from(organizations).where(eq(organizations.id, id));
  return row;
}

/** /organization: the current organisation (app.ts requires a signed-in caller). Its domain never changes. */
export const organizationRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json({ data: await readOrganization(c.var.db, c.var.org.id) }))
  .put('/', requireSession, validJson(organizationUpdateSchema), async (c) => {
    const input = c.req.valid('json');
    const before = await readOrganization(c.var.db, c.var.org.id);
    const [after] = await c.var.db
      .update(organizations)
      .set({ name: input.name, trackOpens: input.track_opens ?? before.track_opens, trackClicks: input.track_clicks ?? before.track_clicks, updatedAt: new Date().toISOString() })
      .where(eq(organizations.id, before.id))
      .returning(COLUMNS);
    const audited = ({ name, track_opens, track_clicks }: OrganizationSettings) => ({ name, track_opens, track_clicks });
    await recordActivity(c, 'organization', after.id, 'update', changedFields(audited(before), audited(after)));
    return c.json({ data: after });
  });
