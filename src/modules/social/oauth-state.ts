import { eq, lt } from 'drizzle-orm';
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
 * callback finds nothing). Returns null when unknown, already used, or expired.
 */
export async function consumeOAuthState(db: Database, state: string): Promise<OAuthState | null> {
  const [row] = await db
    .delete(oauthStates)
    .where(eq(oauthStates.stateHash, await sha256Hex(state)))
    .returning();
  if (!row || row.expiresAt <= new Date().toISOString()) return null;
  return row;
}
