import { and, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oauthStates } from '../../db/schema';
import { sha256Hex } from '../../lib/tokens';
import type { SocialAction } from '../../shared/contracts/social';

/** How long the browser has to come back from the provider. */
export const STATE_TTL_SECONDS = 10 * 60;

export type OAuthState = typeof oauthStates.$inferSelect;

/**
 * Records an authorisation in flight (only the state's hash is kept) and drops states that expired unused,
 * so the table holds only live ones.
 */
export async function saveOAuthState(
  db: Database,
  input: { state: string; orgId: number; provider: string; action: SocialAction; userId: number | null; codeVerifier: string; device: string | null },
): Promise<void> {
  const now = new Date();
  await db.batch([
    db.delete(oauthStates).where(lt(oauthStates.expiresAt, now.toISOString())),
    db.insert(oauthStates).values({
      stateHash: await sha256Hex(input.state),
      orgId: input.orgId,
      provider: input.provider,
      action: input.action,
      userId: input.userId,
      codeVerifier: input.codeVerifier,
      device: input.device,
      expiresAt: new Date(now.getTime() + STATE_TTL_SECONDS * 1000).toISOString(),
    }),
  ]);
}

/**
 * Takes a state out of the table (single use: deleted in the same statement that reads it, so a replayed
 * callback finds nothing). A link the provider already confirmed is not a callback's any more: it is left for
 * its confirmation. Returns null when unknown, already used, confirmed, or expired.
 */
export async function consumeOAuthState(db: Database, state: string): Promise<OAuthState | null> {
  const [row] = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.stateHash, await sha256Hex(state)), isNull(oauthStates.verifiedAt)))
    .returning();
  if (!row || row.expiresAt <= new Date().toISOString()) return null;
  return row;
}

/** The identity the provider confirmed for a link. */
export interface VerifiedIdentity {
  subject: string;
  email: string | null;
  name: string | null;
}

/**
 * Keeps a link the provider confirmed under its state, for a fresh ten minutes, until the console of the browser
 * that started it confirms it with the user's session (the callback itself links nothing: it has no session).
 */
export async function saveVerifiedLink(db: Database, state: string, saved: OAuthState, identity: VerifiedIdentity): Promise<void> {
  const now = new Date();
  await db.insert(oauthStates).values({
    ...saved,
    stateHash: await sha256Hex(state),
    verifiedAt: now.toISOString(),
    subject: identity.subject,
    email: identity.email,
    displayName: identity.name,
    expiresAt: new Date(now.getTime() + STATE_TTL_SECONDS * 1000).toISOString(),
  });
}

/**
 * Takes a confirmed link out of the table, single use, only when it is a verified, unexpired link of this
 * provider, started in this organisation by this user. Anyone else's attempt leaves it untouched. Null otherwise.
 */
export async function consumeVerifiedLink(
  db: Database,
  input: { state: string; orgId: number; provider: string; userId: number },
): Promise<(OAuthState & { subject: string }) | null> {
  const [row] = await db
    .delete(oauthStates)
    .where(
      and(
        eq(oauthStates.stateHash, await sha256Hex(input.state)),
        eq(oauthStates.orgId, input.orgId),
        eq(oauthStates.provider, input.provider),
        eq(oauthStates.action, 'link'),
        eq(oauthStates.userId, input.userId),
        isNotNull(oauthStates.verifiedAt),
        isNotNull(oauthStates.subject),
        gt(oauthStates.expiresAt, new Date().toISOString()),
      ),
    )
    .returning();
  return row?.subject ? { ...row, subject: row.subject } : null;
}
