import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../../context';
import { ApiError } from '../../../lib/api-error';
import { PENDING_DAYS } from '../../../shared/contracts/membership';
import { recordActivity } from '../../activity-log/record';
import { createContact } from '../../contact/write';
import { rawBatch } from '../../crud/raw-batch';
import { announceAfter } from '../../event/announce';
import { liftErasedOfContact } from '../../privacy/erased-list';
import { makeConfirmToken } from './confirm-token';
import type { PublicForm } from './read-form';
import type { SignupValues } from './submission';

// A sign-up written: the contact (found by its email, or made 'explicit' from what the visitor typed; a known
// contact's values are never written over: nothing a stranger types changes a known contact), the consent, and the
// memberships. A stranger's sign-up must not change a known contact's standing either, so a pending row is written
// only where the contact is no member yet: an 'explicit' contact without a row. An 'implied' contact (added by the
// organisation) is a member already; a confirmed row stays confirmed; an unsubscribed row stays so until the person
// confirms through the mailed link (confirm.ts rejoins it through the unsubscribe store). Single opt-in (a verified
// token only) writes confirmed rows where double opt-in would write pending ones.

type Ctx = Context<AppEnv>;

export interface SignupRequest {
  form: PublicForm;
  values: SignupValues;
  /** Confirmed at once (single opt-in with a verified Turnstile token); otherwise pending until the link is used. */
  confirmNow: boolean;
  userAgent: string | null;
  ipHash: string | null;
}

export interface SignupResult {
  contactId: number;
  consentId: number;
  /** The confirmation link's token (double opt-in), to mail. */
  token: string | null;
}

const USER_AGENT_MAX = 512;
const stamp = (ms: number) => new Date(ms).toISOString();

/** The contact holding this email address in the organisation, or null. */
async function contactByEmail(c: Ctx, email: string): Promise<number | null> {
  const row = await c.var.db.get<{ contact_id: number } | undefined>(sql`
    SELECT contact_id FROM contact_addresses WHERE org_id = ${c.var.org.id} AND type = 'email' AND value = ${email}`);
  return row?.contact_id ?? null;
}

/** A new 'explicit' contact from what the visitor typed; a phone another contact holds is left out (never a refusal that tells). */
async function newContact(c: Ctx, values: SignupValues): Promise<number> {
  const email = { type: 'email' as const, value: values.email };
  const attempts = [[email, ...(values.phone ? [{ type: 'phone' as const, value: values.phone }] : [])], [email]];
  for (const addresses of values.phone ? attempts : attempts.slice(1)) {
    try {
      const id = await createContact(
        c,
        {
          name: values.name ?? values.email,
          note: null,
          addresses,
          ...(values.attributes.length ? { attributes: values.attributes } : {}),
        },
        'explicit',
        // The person's own sign-up may bring back an address erased at their request (lifted at once or on confirming).
        'allow',
      );
      return id;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
      // The email taken meanwhile (two sign-ups at once): that contact is the one.
      const found = await contactByEmail(c, values.email);
      if (found) return found;
    }
  }
  throw new Error('the sign-up contact could not be written');
}

/** Writes the sign-up; answers the contact, the consent and (double opt-in) the token to mail. */
export async function writeSignup(c: Ctx, req: SignupRequest): Promise<SignupResult> {
  const orgId = c.var.org.id;
  const db = c.var.db;
  const now = Date.now();
  const known = await contactByEmail(c, req.values.email);
  const contactId = known ?? (await newContact(c, req.values));
  const userAgent = req.userAgent?.slice(0, USER_AGENT_MAX) ?? null;
  const expiresAt = req.confirmNow ? null : stamp(now + PENDING_DAYS * 86_400_000);
  const subscriptionIds = JSON.stringify(req.values.subscriptionIds);

  const consent = await db.get<{ id: number }>(sql`
    INSERT INTO consents (org_id, contact_id, form_id, form_name, subscription_ids, signed_up_at, signup_user_agent, signup_ip_hash,
      confirmed_at, confirm_user_agent, confirm_ip_hash, expires_at)
    VALUES (${orgId}, ${contactId}, ${req.form.id}, ${req.form.name}, ${subscriptionIds}, ${stamp(now)}, ${userAgent}, ${req.ipHash},
      ${req.confirmNow ? stamp(now) : null}, ${req.confirmNow ? userAgent : null}, ${req.confirmNow ? req.ipHash : null}, ${expiresAt})
    RETURNING id`);
  const token = req.confirmNow ? null : await makeConfirmToken(c.env, { orgId, consentId: consent.id });

  const status = req.confirmNow ? 'confirmed' : 'pending';
  const statements = [
    ...(token ? [db.run(sql`UPDATE consents SET token_hash = ${token.hash} WHERE id = ${consent.id}`)] : []),
    // Rows only for an explicit contact without one; a pending row follows the newest sign-up (its link, its expiry).
    db.run(sql`
      INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source, consent_id, expires_at)
      SELECT ${orgId}, j.value, ${contactId}, ${status}, 'form', ${consent.id}, ${expiresAt}
      FROM json_each(${subscriptionIds}) j
      WHERE (SELECT membership FROM contacts WHERE id = ${contactId} AND org_id = ${orgId}) = 'explicit'
      ON CONFLICT (subscription_id, contact_id) DO UPDATE SET status = excluded.status, consent_id = excluded.consent_id,
        expires_at = excluded.expires_at, source = 'form', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE subscription_members.status = 'pending'`),
  ];
  await rawBatch(db, statements);
  // Single opt-in: the sign-up is the person's new consent; double opt-in lifts on confirming (confirm.ts).
  if (req.confirmNow) await liftErasedOfContact(db, c.env, orgId, contactId);

  await recordActivity(c, 'contact', contactId, 'update', [
    { field: req.confirmNow ? 'form_signup_confirmed' : 'form_signup', previous: null, next: `${req.form.name} (consent ${consent.id})` },
  ]);
  announceAfter(c, orgId);
  return { contactId, consentId: consent.id, token: token?.token ?? null };
}
