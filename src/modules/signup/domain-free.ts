import { and, eq, gt, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organizations, signups } from '../../db/schema';

/**
 * Whether an organisation domain can still be taken: no organisation has it, and no one else's sign-up is
 * waiting for payment with it (the same email starting again is not blocked by its own earlier attempt).
 */
export async function domainIsFree(db: Database, domain: string, email: string): Promise<boolean> {
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.domain, domain)).limit(1);
  if (org) return false;
  const [pending] = await db
    .select({ id: signups.id })
    .from(signups)
    .where(and(eq(signups.domain, domain), eq(signups.status, 'pending'), gt(signups.expiresAt, new Date().toISOString()), ne(signups.email, email)))
    .limit(1);
  return !pending;
}
