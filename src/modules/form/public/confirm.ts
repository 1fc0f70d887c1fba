import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../../context';
import { rawBatch } from '../../crud/raw-batch';
import { recordActivity } from '../../activity-log/record';
import { announceAfter } from '../../event/announce';
import { liftErasedOfContact } from '../../privacy/erased-list';
import { recountUnsubscribes, resubscribe } from '../../unsubscribe/store';
import { readConfirmToken } from './confirm-token';

// The confirmation link: GET only looks (mail scanners open links: opening changes nothing), POST confirms. A
// confirmation makes the sign-up's pending rows confirmed (source 'form', the consent), writes a confirmed row where
// an 'explicit' contact has none, and rejoins a subscription the person had left (through the unsubscribe store,
// the one writer of leaving and joining: their own click is their word). The consent keeps when, the confirming
// request's user agent and keyed IP hash; its token's hash is cleared, so the link works once.

type Ctx = Context<AppEnv>;

export type ConsentState =
  | { kind: 'invalid' }
  | { kind: 'expired' }
  | { kind: 'confirmed' }
  | { kind: 'open'; consentId: number; contactId: number; subscriptionIds: number[]; subscriptions: string[]; formName: string };

interface ConsentRow {
  id: number;
  contact_id: number;
  form_name: string;
  subscription_ids: string;
  token_hash: string | null;
  confirmed_at: string | null;
  expires_at: string | null;
}

/** What the token names, read only. */
export async function consentOfToken(c: Ctx, token: string | undefined | null): Promise<ConsentState> {
  const ref = await readConfirmToken(c.env, token);
  if (!ref || ref.orgId !== c.var.org.id) return { kind: 'invalid' };
  const row = await c.var.db.get<ConsentRow | undefined>(sql`
    SELECT id, contact_id, form_name, subscription_ids, token_hash, confirmed_at, expires_at FROM consents
    WHERE id = ${ref.consentId} AND org_id = ${ref.orgId}`);
  if (!row) return { kind: 'invalid' };
  if (row.confirmed_at) return { kind: 'confirmed' };
  if (row.token_hash !== ref.hash) return { kind: 'invalid' };
  if (row.expires_at && row.expires_at <= new Date().toISOString()) return { kind: 'expired' };
  const names = await c.var.db.all<{ id: number; name: string }>(sql`
    SELECT id, name FROM subscriptions WHERE org_id = ${ref.orgId} AND id IN (SELECT value FROM json_each(${row.subscription_ids})) ORDER BY priority, id`);
  return {
    kind: 'open',
    consentId: row.id,
    contactId: row.contact_id,
    subscriptionIds: names.map((s) => s.id),
    subscriptions: names.map((s) => s.name),
    formName: row.form_name,
  };
}

/** Confirms an open consent; answers 'confirmed', or 'already' when another request confirmed it first. */
export async function confirmConsent(
  c: Ctx,
  open: Extract<ConsentState, { kind: 'open' }>,
  proof: { userAgent: string | null; ipHash: string | null },
): Promise<'confirmed' | 'already'> {
  const db = c.var.db;
  const orgId = c.var.org.id;
  const now = new Date().toISOString();
  const ids = JSON.stringify(open.subscriptionIds);
  const [claimed] = await rawBatch(db, [
    db.run(sql`UPDATE consents SET confirmed_at = ${now}, confirm_user_agent = ${proof.userAgent?.slice(0, 512) ?? null},
      confirm_ip_hash = ${proof.ipHash}, token_hash = NULL, expires_at = NULL, updated_at = ${now}
      WHERE id = ${open.consentId} AND org_id = ${orgId} AND confirmed_at IS NULL`),
    // The rest only when the line above claimed the consent (this request confirms, no other).
    db.run(sql`UPDATE subscription_members SET status = 'confirmed', source = 'form', consent_id = ${open.consentId}, expires_at = NULL, updated_at = ${now}
      WHERE org_id = ${orgId} AND contact_id = ${open.contactId} AND status = 'pending'
        AND subscription_id IN (SELECT value FROM json_each(${ids}))
        AND (SELECT confirmed_at FROM consents WHERE id = ${open.consentId}) = ${now}`),
    db.run(sql`INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source, consent_id)
      SELECT ${orgId}, j.value, ${open.contactId}, 'confirmed', 'form', ${open.consentId} FROM json_each(${ids}) j
      WHERE (SELECT membership FROM contacts WHERE id = ${open.contactId} AND org_id = ${orgId}) = 'explicit'
        AND (SELECT confirmed_at FROM consents WHERE id = ${open.consentId}) = ${now}
      ON CONFLICT (subscription_id, contact_id) DO NOTHING`),
  ]);
  if ((claimed.meta.changes ?? 0) === 0) return 'already';
  // The person proved the address: an erasure's "do not re-add" row of it goes (src/modules/privacy/erased-list.ts).
  await liftErasedOfContact(db, c.env, orgId, open.contactId);

  // Subscriptions the person had left: their click rejoins them, through the one writer of leaving and joining.
  const left = await db.all<{ subscription_id: number }>(sql`
    SELECT subscription_id FROM subscription_members WHERE org_id = ${orgId} AND contact_id = ${open.contactId} AND status = 'unsubscribed'
      AND subscription_id IN (SELECT value FROM json_each(${ids}))`);
  if (left.length) {
    const who = { orgId, contactId: open.contactId };
    const changes = await Promise.all(left.map((r) => resubscribe(db, who, r.subscription_id)));
    await recountUnsubscribes(c.env, db, orgId, changes);
    await db.run(sql`UPDATE subscription_members SET source = 'form', consent_id = ${open.consentId}
      WHERE org_id = ${orgId} AND contact_id = ${open.contactId} AND status = 'confirmed'
        AND subscription_id IN (SELECT value FROM json_each(${JSON.stringify(left.map((r) => r.subscription_id))}))`);
  }
  await recordActivity(c, 'contact', open.contactId, 'update', [
    { field: 'form_confirmation', previous: null, next: `${open.formName} (consent ${open.consentId})` },
  ]);
  announceAfter(c, orgId);
  return 'confirmed';
}
