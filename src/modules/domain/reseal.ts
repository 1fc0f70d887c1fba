// SECRETS_KEY rotation for sending domains (README "Rotating SECRETS_KEY"): once a new key is put in front of the ring,
// the housekeeping cron re-seals the DKIM private keys (current and a rotation's next) still sealed with an older
// entry, a batch per run, so the old entry can be dropped without losing a key. A key is rewritten only if it is
// still the value that was read (a rotation or promotion in between wins), and the key itself never changes.
import { and, eq, like, not, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sendingDomains } from '../../db/schema';
import { decryptSecret, encryptSecret, needsRotation, parseKeyRing } from '../../lib/crypto/secret-box';

/** Rows one run re-seals. */
export const RESEAL_BATCH = 100;

/** Re-seals the keys sealed with an older SECRETS_KEY entry; answers how many keys were re-sealed. */
export async function resealDomainKeys(db: Database, env: { SECRETS_KEY: string }, limit = RESEAL_BATCH): Promise<number> {
  const prefix = `v1.${parseKeyRing(env.SECRETS_KEY)[0].id}.%`;
  const rows = await db
    .select({ id: sendingDomains.id, current: sendingDomains.dkimPrivateKey, next: sendingDomains.nextDkimPrivateKey })
    .from(sendingDomains)
    .where(or(not(like(sendingDomains.dkimPrivateKey, prefix)), not(like(sendingDomains.nextDkimPrivateKey, prefix))))
    .limit(limit);
  let resealed = 0;
  for (const row of rows) {
    const values: Partial<typeof sendingDomains.$inferInsert> = {};
    const unchanged: SQL[] = [eq(sendingDomains.id, row.id)];
    try {
      if (needsRotation(env.SECRETS_KEY, row.current)) {
        values.dkimPrivateKey = await encryptSecret(env.SECRETS_KEY, await decryptSecret(env.SECRETS_KEY, row.current));
        unchanged.push(eq(sendingDomains.dkimPrivateKey, row.current));
      }
      if (row.next && needsRotation(env.SECRETS_KEY, row.next)) {
        values.nextDkimPrivateKey = await encryptSecret(env.SECRETS_KEY, await decryptSecret(env.SECRETS_KEY, row.next));
        unchanged.push(eq(sendingDomains.nextDkimPrivateKey, row.next));
      }
    } catch (error) {
      // Sealed with an entry the ring no longer holds: nothing can open it; say so rather than stop the others.
      console.error(JSON.stringify({ level: 'error', job: 'resealDomainKeys', domain_id: row.id, error: String(error) }));
      continue;
    }
    if (Object.keys(values).length === 0) continue;
    const done = await db
      .update(sendingDomains)
      .set(values)
      .where(and(...unchanged))
      .returning({ id: sendingDomains.id });
    if (done.length > 0) resealed += Object.keys(values).length;
  }
  return resealed;
}
