import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError } from '../../lib/api-error';
import { hit, type Limit } from '../../lib/rate-limit';
import { readPreferencesToken } from '../../lib/templating/preferences-link';
import { readUnsubscribeToken } from '../../lib/templating/unsubscribe-link';
import { MESSAGES } from '../../shared/messages';
import { UNSUBSCRIBE_MESSAGES } from '../../shared/contracts/unsubscribe';
import { ledgerDb } from '../ledger/ledger-db';
import { ledgerOfMessage } from '../ledger/registry';
import type { MessageOf } from './store';

// What a signed unsubscribe link names, checked: the organisation and contact must both exist and belong together.
// Everything the public routes touch comes from here, never from the request's host or body.

/** Requests from one address to the public unsubscribe endpoints: generous for a person, tight for a script. */
export const UNSUBSCRIBE_LIMIT: Limit = { max: 30, windowSeconds: 60 };

export interface LinkTarget extends MessageOf {
  orgName: string;
  /** The category of the message (its broadcast's, or a transactional message's own): what the page asks about and a one-click POST leaves. */
  subscriptionId: number | null;
}

/**
 * Counts the request against `key` (the page: the client's address; the one-click POST: the contact, since mail
 * providers send those for all their users from a few addresses); 429 past the limit.
 */
export async function limitPublicRequest(
  c: Context<AppEnv>,
  key = `ip:${c.req.header('cf-connecting-ip') ?? c.req.header('x-forwarded-for') ?? 'local'}`,
): Promise<void> {
  const state = await hit(c.var.db, `unsubscribe:${key}`, UNSUBSCRIBE_LIMIT);
  if (state.count > UNSUBSCRIBE_LIMIT.max) {
    throw new ApiError(429, 'rate_limited', MESSAGES.rateLimited, undefined, { 'Retry-After': String(state.retryAfter) });
  }
}

/**
 * The link's organisation, contact and message, with the message's broadcast and its category when the message is
 * this contact's (one query); a 404 `link_invalid` when the link is forged, incomplete or stale. When the message
 * row is gone (archived past its retention, deleted) the broadcast the signed link names stands in for it, so a
 * one-click POST still leaves that broadcast's category only, never every category.
 */
export async function readLink(c: Context<AppEnv>, token: string | undefined): Promise<LinkTarget> {
  const ref = token ? await readUnsubscribeToken(c.env, token) : null;
  const invalid = new ApiError(404, 'link_invalid', UNSUBSCRIBE_MESSAGES.linkInvalid);
  if (!ref?.contactId) throw invalid;
  // The message is in the ledger its id names (src/modules/ledger); the organisation and contact in D1.
  const handle = ref.messageId ? await ledgerOfMessage(c.env, c.var.db, ref.orgId, ref.messageId) : null;
  const message = handle
    ? await ledgerDb(handle).get<{ broadcast_id: number | null; category: number | null } | undefined>(sql`
        SELECT broadcast_id, send_options ->> 'subscriptionId' AS category FROM messages
        WHERE id = ${ref.messageId} AND org_id = ${ref.orgId} AND contact_id = ${ref.contactId}`)
    : undefined;
  const broadcastId = message ? message.broadcast_id : (ref.broadcastId ?? null);
  // A transactional message's category is its own (src/modules/transactional), checked to be the organisation's.
  const category = message?.category ?? null;
  const row = await c.var.db.get<{ name: string; broadcast_id: number | null; subscription_id: number | null } | undefined>(sql`
    SELECT o.name, b.id AS broadcast_id, coalesce(b.subscription_id, s.id) AS subscription_id
    FROM organizations o JOIN contacts ct ON ct.org_id = o.id AND ct.id = ${ref.contactId}
      LEFT JOIN broadcasts b ON b.id = ${broadcastId} AND b.org_id = o.id
      LEFT JOIN subscriptions s ON s.id = ${category} AND s.org_id = o.id
    WHERE o.id = ${ref.orgId}`);
  if (!row) throw invalid;
  return {
    orgId: ref.orgId,
    contactId: ref.contactId,
    messageId: ref.messageId,
    broadcastId: row.broadcast_id ?? null,
    subscriptionId: row.subscription_id ?? null,
    orgName: row.name,
  };
}

/**
 * The contact a preferences link (`p`, src/lib/templating/preferences-link.ts) names, checked like a message's link:
 * the organisation and contact exist and belong together; a 404 `link_invalid` when forged, expired or stale. It names
 * no message, so no broadcast or category either: the page asks about none and a change counts against no broadcast.
 */
export async function readPreferencesLink(c: Context<AppEnv>, token: string | undefined): Promise<LinkTarget> {
  const ref = token ? await readPreferencesToken(c.env, token) : null;
  const row = ref
    ? await c.var.db.get<{ name: string } | undefined>(sql`
        SELECT o.name FROM organizations o JOIN contacts ct ON ct.org_id = o.id AND ct.id = ${ref.contactId} WHERE o.id = ${ref.orgId}`)
    : undefined;
  if (!ref || !row) throw new ApiError(404, 'link_invalid', UNSUBSCRIBE_MESSAGES.linkInvalid);
  return { orgId: ref.orgId, contactId: ref.contactId, messageId: null, broadcastId: null, subscriptionId: null, orgName: row.name };
}
