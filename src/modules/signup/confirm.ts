import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { signups } from '../../db/schema';
import type { Env } from '../../env';
import { orgUrl } from '../../lib/org-url';
import { randomToken, sha256Hex } from '../../lib/tokens';
import { enqueueSystemMail } from '../system-mail/queue-mail';
import { completionMail } from './mails';

// A confirmed payment turns a sign-up into an account. Stripe's webhook and the test checkout both come here;
// either may arrive more than once (or at once), so only the batch whose UPDATE took pending -> paid creates it.

/** How long the emailed completion link works. */
export const SIGN_COMPLETE_TTL_MS = 7 * 86_400_000;
export const SIGN_COMPLETE_PURPOSE = 'sign_complete';

export type ConfirmOutcome = 'created' | 'already' | 'domain_taken' | 'not_found';

/**
 * Marks the sign-up paid and, once only, creates its organisation and user (registration pending), a
 * sign-up completion code and the email with the completion link, all in one D1 batch (one transaction):
 * either the payment is recorded with its whole account and mail, or nothing changed and a retry starts over.
 * A domain taken meanwhile leaves the sign-up failed (paid, no account: the operator refunds it).
 */
export async function confirmPayment(env: Env, db: Database, signupId: string): Promise<ConfirmOutcome> {
  const [signup] = await db.select().from(signups).where(eq(signups.id, signupId)).limit(1);
  if (!signup) return 'not_found';
  if (signup.status !== 'pending') return 'already';

  const now = new Date().toISOString();
  const code = randomToken();
  const username = signup.email.trim().toLowerCase();
  const link = orgUrl(env, signup.domain, `/sign-complete?code=${encodeURIComponent(code)}`);
  const mail = completionMail(signup.email, signup.name, signup.orgName, link);
  // Every statement after the first runs only for the batch whose UPDATE took the sign-up from pending to paid
  // (D1 runs batches one at a time, and the last statement sets org_id, so a second batch finds it set).
  const won = "EXISTS (SELECT 1 FROM signups WHERE id = ?9 AND status = 'paid' AND org_id IS NULL)";
  const orgOf = 'SELECT id FROM organizations WHERE domain = ?1';
  const userOf = `SELECT id FROM users WHERE org_id = (${orgOf}) AND username = ?2`;
  const bind = (statement: string, ...values: unknown[]) => env.DB.prepare(statement).bind(signup.domain, username, ...values);
  let results: D1Result[];
  try {
    results = await env.DB.batch([
      env.DB.prepare("UPDATE signups SET status = 'paid', paid_at = ?1, updated_at = ?1 WHERE id = ?2 AND status = 'pending'").bind(now, signup.id),
      bind(`INSERT INTO organizations (name, domain) SELECT ?3, ?1 WHERE ${won}`, signup.orgName, null, null, null, null, null, signup.id),
      bind(
        `INSERT INTO users (org_id, name, username, email, password_hash, registration_pending) SELECT (${orgOf}), ?3, ?2, ?4, ?5, 1 WHERE ${won}`,
        signup.name,
        signup.email,
        signup.passwordHash,
        null,
        null,
        null,
        signup.id,
      ),
      bind(
        `INSERT INTO one_time_codes (org_id, user_id, purpose, code_hash, expires_at) SELECT (${orgOf}), (${userOf}), ?3, ?4, ?5 WHERE ${won}`,
        SIGN_COMPLETE_PURPOSE,
        await sha256Hex(code),
        new Date(Date.now() + SIGN_COMPLETE_TTL_MS).toISOString(),
        null,
        null,
        null,
        signup.id,
      ),
      bind(
        `INSERT INTO system_mails (org_id, to_address, subject, text, html) SELECT (${orgOf}), ?3, ?4, ?5, ?6 WHERE ${won} RETURNING id`,
        mail.to,
        mail.subject,
        mail.text,
        mail.html ?? null,
        null,
        null,
        signup.id,
      ),
      bind(
        `UPDATE signups SET org_id = (${orgOf}), user_id = (${userOf}), updated_at = ?3 WHERE id = ?9 AND ${won}`,
        now,
        null,
        null,
        null,
        null,
        null,
        signup.id,
      ),
    ]);
  } catch (error) {
    if (!/UNIQUE constraint failed: organizations\.domain/.test(errorText(error))) throw error;
    const failed = await db
      .update(signups)
      .set({ status: 'failed', paidAt: now, updatedAt: new Date().toISOString() })
      .where(and(eq(signups.id, signup.id), eq(signups.status, 'pending')))
      .returning({ id: signups.id });
    if (failed.length === 0) return 'already';
    console.error(JSON.stringify({ level: 'error', signup: signup.id, error: `paid, but the domain "${signup.domain}" was taken meanwhile: refund it` }));
    return 'domain_taken';
  }
  if (results[0].meta.changes === 0) return 'already';
  const mailId = (results[4].results[0] as { id: number } | undefined)?.id;
  // Should this enqueue fail, the cron's system-mail rescue sends the stored mail later.
  if (mailId) await enqueueSystemMail(env, mailId);
  return 'created';
}

function errorText(error: unknown): string {
  let text = '';
  for (let e: unknown = error; e instanceof Error; e = e.cause) text += ` ${e.message}`;
  return text;
}
