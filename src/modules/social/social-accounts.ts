import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { socialAccounts } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';

export type SocialAccount = typeof socialAccounts.$inferSelect;

/** Queries on one organisation's linked social accounts (always through its TenantScope). */
export function socialAccountsOf(db: Database, orgId: number) {
  const scope = new TenantScope(db, socialAccounts, orgId);
  const first = async (...conditions: Parameters<typeof scope.where>) => (await scope.selectWhere(and(...conditions)).limit(1))[0] as SocialAccount | undefined;
  return {
    scope,
    /** Every account a user has linked. */
    forUser: async (userId: number) => (await scope.selectWhere(eq(socialAccounts.userId, userId))) as SocialAccount[],
    /** The user's account at one provider. */
    forUserAt: (userId: number, provider: string) => first(eq(socialAccounts.userId, userId), eq(socialAccounts.provider, provider)),
    /** The account of a provider identity (provider + subject), whoever it is linked to. */
    bySubject: (provider: string, subject: string) => first(eq(socialAccounts.provider, provider), eq(socialAccounts.subject, subject)),
  };
}
