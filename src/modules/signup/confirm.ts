import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { signups } from '../../db/schema';
import type { Env } from '../../env';
import { orgUrl } from '../../lib/org-url';
import { randomToken, sha256Hex } from '../../lib/tokens';
import { queueSystemMail } from '../system-mail/queue-mail';
import { completionMail } from './mails';

// A confirmed payment turns a sign-up into an account. Stripe's webhook and the test checkout both come here;
// either may arrive more than once, so the pending -> paid step is a conditional UPDATE that only one wins.

/** How long the emailed completion link works. */
export const SIGN_COMPLETE_TTL_MS = 7 * 86_400_000;
export const SIGN_COMPLETE_PURPOSE = 'sign_complete';

export type ConfirmOutcome = 'created' | 'already' | 'domain_taken' | 'not_found';

/**
 * Marks the sign-up paid and, once only, creates its organisation and user (registration pending), a
 * sign-up completion code, and queues the email with the completion link. A domain taken meanwhile leaves
 * the sign-up failed (paid, no account: the operator refunds it).
 */
export async function confirmPayment(env: Env, db: Database, signupId: string): Promise<ConfirmOutcome> {
  const now = new Date().toISOString();
  const [signup] = await db
    .update(signups)
    .set({ status: 'paid', paidAt: now, updatedAt: now })
    .where(and(eq(signups.id, signupId), eq(signups.status, 'pending')))
    .returning();
  if (!signup) {
    const [existing] = await db.select({ id: signups.id }).from(signups).where(eq(signups.id, signupId)).limit(1);
    return existing ? 'already' : 'not_found';
  }

  const code = randomToken();
  const username = signup.email.trim().toLowerCase();
  const orgOf = 'SELECT id FROM organizations WHERE domain = ?1';
  const userOf = `SELECT id FROM users WHERE org_id = (${orgOf}) AND username = ?2`;
  try {
    // One D1 batch is one transaction: either the whole account exists afterwards, or none of it.
    await env.DB.batch([
      env.DB.prepare('INSERT INTO organizations (name, domain) VALUES (?, ?)').bind(signup.orgName, signup.domain),
      env.DB.prepare(
        `INSERT INTO users (org_id, name, username, email, password_hash, registration_pending) VALUES ((${orgOf}), ?3, ?2, ?4, ?5, 1)`,
      ).bind(signup.domain, username, signup.name, signup.email, signup.passwordHash),
      env.DB.prepare(
        `INSERT INTO one_time_codes (org_id, user_id, purpose, code_hash, expires_at) VALUES ((${orgOf}), (${userOf}), ?3, ?4, ?5)`,
      ).bind(signup.domain, username, SIGN_COMPLETE_PURPOSE, await sha256Hex(code), new Date(Date.now() + SIGN_COMPLETE_TTL_MS).toISOString()),
      env.DB.prepare(`UPDATE signups SET org_id = (${orgOf}), user_id = (${userOf}), updated_at = ?3 WHERE id = ?4`).bind(
        signup.domain,
        username,
        now,
        signup.id,
      ),
    ]);
  } catch (error) {
    if (!/UNIQUE constraint failed: organizations\.domain/.test(errorText(error))) throw error;
    await db.update(signups).set({ status: 'failed', updatedAt: new Date().toISOString() }).where(eq(signups.id, signup.id));
    console.error(JSON.stringify({ level: 'error', signup: signup.id, error: `paid, but the domain "${signup.domain}" was taken meanwhile: refund it` }));
    return 'domain_taken';
  }

  const [created] = await db.select({ orgId: signups.orgId }).from(signups).where(eq(signups.id, signup.id)).limit(1);
  const link = orgUrl(env, signup.domain, `/sign-complete?code=${encodeURIComponent(code)}`);
  await queueSystemMail(env, db, completionMail(signup.email, signup.name, signup.orgName, link, created.orgId!));
  return 'created';
}

function errorText(error: unknown): string {
  let text = '';
  for (let e: unknown = error; e instanceof Error; e = e.cause) text += ` ${e.message}`;
  return text;
}
