import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { contacts } from '../../db/schema';
import { validJson } from '../../lib/validate';
import { membershipsPutSchema } from '../../shared/contracts/membership';
import { rowOr404 } from '../crud/rows';
import { applyMemberships, checkMemberships } from './organisation-write';
import { contactMembershipsOf } from './read';

// /contact/{id}/memberships: the contact's standing in every subscription of the organisation and the consent of each
// of its sign-ups, as the contact's page shows them (GET); the organisation setting the standing in the subscriptions
// it names, confirmed or unsubscribed with a source (PUT; src/modules/membership/organisation-write.ts).

export const contactMembershipRoutes = new Hono<AppEnv>()
  .get('/:id/memberships', async (c) => {
    const contact = await rowOr404(c, contacts);
    return c.json({ data: await contactMembershipsOf(c.var.db, contact) });
  })
  .put('/:id/memberships', validJson(membershipsPutSchema), async (c) => {
    const contact = await rowOr404(c, contacts);
    const changes = await checkMemberships(c, c.req.valid('json').memberships, 'memberships');
    await applyMemberships(c, contact.id, changes);
    return c.json({ data: await contactMembershipsOf(c.var.db, contact) });
  });
