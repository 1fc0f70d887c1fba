import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { preRegistrations } from '../../db/schema';
import type { Env } from '../../env';
import { ApiError, notFound } from '../../lib/api-error';
import type { PreRegistrationStatus, PreRegistrationView } from '../../shared/contracts/signup';
import { readSignupSettings } from '../platform-settings/settings';
import { signInvite } from '../signup/invite';
import { preRegistrationApprovedMail, preRegistrationDeclinedMail } from '../signup/mails';
import { queueSystemMail } from '../system-mail/queue-mail';

type Row = typeof preRegistrations.$inferSelect;

/** A pre-registration request as the operator API shows it. */
export function preRegistrationView(row: Row): PreRegistrationView {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    organization: row.orgName,
    domain: row.domain,
    comments: row.comments,
    status: row.status as PreRegistrationStatus,
    review_note: row.reviewNote,
    reviewed_at: row.reviewedAt,
    created_at: row.createdAt,
  };
}

/** The requests, newest first, optionally of one status. */
export async function listPreRegistrations(db: Database, status?: PreRegistrationStatus): Promise<PreRegistrationView[]> {
  const rows = await db
    .select()
    .from(preRegistrations)
    .where(status ? eq(preRegistrations.status, status) : undefined)
    .orderBy(desc(preRegistrations.createdAt), desc(preRegistrations.id))
    .limit(1000);
  return rows.map(preRegistrationView);
}

/**
 * Approves or declines a pending request (only once: a conditional UPDATE from pending) and mails the visitor
 * the outcome; an approval carries the invitation link to the sign-up page.
 */
export async function reviewPreRegistration(
  env: Env,
  db: Database,
  id: number,
  decision: 'approved' | 'declined',
  note: string | null,
): Promise<PreRegistrationView> {
  const now = new Date().toISOString();
  const [row] = await db
    .update(preRegistrations)
    .set({ status: decision, reviewNote: note, reviewedAt: now, updatedAt: now })
    .where(and(eq(preRegistrations.id, id), eq(preRegistrations.status, 'pending')))
    .returning();
  if (!row) {
    const [existing] = await db.select({ status: preRegistrations.status }).from(preRegistrations).where(eq(preRegistrations.id, id)).limit(1);
    if (!existing) throw notFound();
    throw new ApiError(409, 'conflict', `This request was already ${existing.status}`);
  }
  if (decision === 'approved') {
    const { 'signup.applicationUrl': applicationUrl } = await readSignupSettings(env, db);
    const url = new URL(applicationUrl);
    url.searchParams.set('invite', await signInvite(env, row.email));
    await queueSystemMail(env, db, preRegistrationApprovedMail(row.email, row.name, url.toString(), note));
  } else {
    await queueSystemMail(env, db, preRegistrationDeclinedMail(row.email, row.name, note));
  }
  return preRegistrationView(row);
}
