import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { subscriptions } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { MEMBERSHIP_MESSAGES, type MembershipInput } from '../../shared/contracts/membership';
import { recordActivity } from '../activity-log/record';
import { announceAfter } from '../event/announce';
import { joinByOrganisation, leaveByOrganisation, recountUnsubscribes, type OrganisationSource } from '../unsubscribe/store';
import { presentStanding } from './read';
import { memberStatusSql } from './rules';

// The organisation sets a contact's standing in its subscriptions (PUT /contact/{id}/memberships, and `subscriptions`
// of the contact writes): confirmed or unsubscribed, with a source. Leaving and joining go through the unsubscribe
// store, the one writer of both (src/modules/unsubscribe/store.ts), whose triggers keep the member rows and the outbox
// events; who is then a member is rules.ts's to say.

type Ctx = Context<AppEnv>;

/** One checked membership write: the subscription (with its name, for the activity log) and the standing to set. */
export interface MembershipChange {
  subscriptionId: number;
  name: string;
  status: 'confirmed' | 'unsubscribed';
  source: OrganisationSource;
}

/** The caller's own source: 'console' for a signed-in user's session, 'api' for an API key (personal or the organisation's). */
export function callerSource(c: Ctx): OrganisationSource {
  return c.var.auth.sessionId ? 'console' : 'api';
}

/**
 * Checks that every named subscription is the organisation's and named once; throws one 422 naming each bad item
 * (`<path>.<i>.subscription_id`) before anything is written. Answers the changes to apply.
 */
export async function checkMemberships(c: Ctx, items: MembershipInput[], path: string): Promise<MembershipChange[]> {
  const scope = new TenantScope(c.var.db, subscriptions, c.var.org.id);
  const ids = [...new Set(items.map((m) => m.subscription_id))];
  const found = ids.length
    ? await c.var.db
        .select({ id: subscriptions.id, name: subscriptions.name })
        .from(subscriptions)
        .where(scope.where(scope.idIn(ids)))
    : [];
  const names = new Map(found.map((s) => [s.id, s.name]));
  const errors: Record<string, string[]> = {};
  const seen = new Set<number>();
  items.forEach((m, i) => {
    const field = `${path}.${i}.subscription_id`;
    if (!names.has(m.subscription_id)) errors[field] = [MEMBERSHIP_MESSAGES.unknownSubscription];
    else if (seen.has(m.subscription_id)) errors[field] = [MEMBERSHIP_MESSAGES.twice];
    seen.add(m.subscription_id);
  });
  if (Object.keys(errors).length) throw validationFailed(errors);
  const source = callerSource(c);
  return items.map((m) => ({ subscriptionId: m.subscription_id, name: names.get(m.subscription_id)!, status: m.status, source: m.source ?? source }));
}

/**
 * Applies checked changes to one contact of the organisation: each through the unsubscribe store, the broadcasts an
 * undone unsubscribe came from recounted, the events announced, and one activity-log line per standing that changed
 * (before and after as the membership rule reads them).
 */
export async function applyMemberships(c: Ctx, contactId: number, changes: MembershipChange[]): Promise<void> {
  if (changes.length === 0) return;
  const db = c.var.db;
  const who = { orgId: c.var.org.id, contactId };
  const scope = new TenantScope(db, subscriptions, who.orgId);
  // Each standing as the log shows it: "confirmed (api)", "confirmed (implied)", "pending (form)", or none.
  const standing = async () => {
    const rows = await db.all<{ id: number; status: string | null; source: string | null }>(sql`
      SELECT ${subscriptions.id} AS id, ${memberStatusSql(sql`${subscriptions.id}`, sql`${contactId}`)} AS status,
        (SELECT m.source FROM subscription_members m WHERE m.subscription_id = ${subscriptions.id} AND m.contact_id = ${contactId}) AS source
      FROM ${subscriptions} WHERE ${scope.where(scope.idIn(changes.map((m) => m.subscriptionId)))}`);
    return new Map(
      rows.map((r) => {
        if (r.status === null) return [r.id, null];
        const shown = presentStanding(r.status, r.source);
        return [r.id, `${shown.status} (${shown.source})`];
      }),
    );
  };
  const before = await standing();
  const results = [];
  for (const m of changes) {
    results.push(
      m.status === 'confirmed' ? await joinByOrganisation(db, who, m.subscriptionId, m.source) : await leaveByOrganisation(db, who, m.subscriptionId, m.source),
    );
  }
  if (!results.some((r) => r.changed)) return;
  await recountUnsubscribes(c.env, db, who.orgId, results);
  announceAfter(c);
  const after = await standing();
  const log = changes
    .filter((m) => before.get(m.subscriptionId) !== after.get(m.subscriptionId))
    .map((m) => ({ field: `subscription: ${m.name}`, previous: before.get(m.subscriptionId) ?? null, next: after.get(m.subscriptionId) ?? null }));
  await recordActivity(c, 'contact', contactId, 'update', log);
}
