import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { organizations } from '../../db/schema';
import { requireSession } from '../../middleware/auth';
import { validJson } from '../../lib/validate';
import { organizationUpdateSchema } from '../../shared/contracts/account';
import { changedFields, recordActivity } from '../activity-log/record';

/** /organization: the current organisation (app.ts requires a signed-in caller). Its domain never changes. */
export const organizationRoutes = new Hono<AppEnv>()
  .get('/', (c) => c.json({ data: c.var.org }))
  .put('/', requireSession, validJson(organizationUpdateSchema), async (c) => {
    const { name } = c.req.valid('json');
    const before = c.var.org;
    const [after] = await c.var.db
      .update(organizations)
      .set({ name, updatedAt: new Date().toISOString() })
      .where(eq(organizations.id, before.id))
      .returning({ id: organizations.id, name: organizations.name, domain: organizations.domain });
    await recordActivity(c, 'organization', after.id, 'update', changedFields({ name: before.name }, { name: after.name }));
    return c.json({ data: after });
  });
