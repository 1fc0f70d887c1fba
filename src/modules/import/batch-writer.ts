// The SQL of one import batch. Each table gets ONE statement per batch whatever the number of rows: the rows
// travel as a single JSON parameter read with json_each(?), so D1's 100-parameter limit never matters and
// a batch of thousands of rows is a handful of statements. All of them, plus the import's cursor and counts,
// go in one db.batch(), which D1 runs as one transaction: a batch is either wholly committed with its
// cursor or not at all, which is what makes a retried job resume without duplicates.
//
// New contacts get consecutive ids above the current highest (and above sqlite_sequence, so AUTOINCREMENT
// never hands out an id twice). Inside the transaction nothing else writes, so the statements after the
// contact insert find those ids again as (MAX(id) - new_count + index + 1) without a round trip.
// Every statement binds the organisation id itself. Join orders are pinned (CROSS JOIN, `+org_id`) so each
// JSON row is one index lookup: left to itself, SQLite would scan the organisation's rows once per batch.
import type { BatchPlan, ResolvedAttribute } from './batch-plan';
import { addressKey } from './batch-plan';

export interface CursorUpdate {
  importId: number;
  orgId: number;
  /** The cursor the job read before this batch; the batch fails if another run has moved it since. */
  expectedBytes: number;
  bytes: number;
  row: number;
  created: number;
  updated: number;
  rejected: number;
  /** The whole capped rejection list when it changed, else null. */
  rejections: string | null;
  now: string;
  /** Subscriptions every contact of the batch joins (the import's subscription_ids still in the organisation). */
  subscriptionIds: number[];
}

/** The message of the deliberate failure that aborts a batch whose cursor moved (see `guard`). */
export const CURSOR_MOVED = 'import cursor moved';

/** Existing contacts owning any of these addresses, in one query. */
export async function findAddressOwners(d1: D1Database, orgId: number, keys: { type: string; value: string }[]): Promise<Map<string, number>> {
  const owners = new Map<string, number>();
  if (keys.length === 0) return owners;
  const { results } = await d1
    .prepare(
      `SELECT a.type AS type, a.value AS value, a.contact_id AS contact_id
       FROM json_each(?2) j CROSS JOIN contact_addresses a
       WHERE a.org_id = ?1 AND a.type = j.value ->> 0 AND a.value = j.value ->> 1`,
    )
    .bind(orgId, JSON.stringify(keys.map((k) => [k.type, k.value])))
    .all<{ type: string; value: string; contact_id: number }>();
  for (const row of results) owners.set(addressKey(row.type, row.value), row.contact_id);
  return owners;
}

/** The statements of one batch, in order: guard, contacts, addresses, attributes, tags, cursor. */
export function batchStatements(d1: D1Database, plan: BatchPlan, cursor: CursorUpdate): D1PreparedStatement[] {
  const org = cursor.orgId;
  const newCount = plan.created.length;
  const statements: D1PreparedStatement[] = [guard(d1, cursor)];
  // `ref` turns [existing_id, new_index] (the first two items of a JSON row) into a contact id.
  const base = `(SELECT (SELECT MAX(id) FROM contacts) - ?3 AS base) b`;
  const ref = `COALESCE(j.value ->> 0, b.base + (j.value ->> 1) + 1)`;

  if (newCount) {
    statements.push(
      d1
        .prepare(
          `INSERT INTO contacts (id, org_id, name, note, created_at, updated_at)
           SELECT s.base + j.key + 1, ?1, j.value ->> 0, j.value ->> 1, ?3, ?3
           FROM json_each(?2) j,
             (SELECT MAX(COALESCE((SELECT MAX(id) FROM contacts), 0),
                         COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'contacts'), 0)) AS base) s`,
        )
        .bind(org, JSON.stringify(plan.created.map((c) => [c.name, c.note])), cursor.now),
    );
    // The organisation's day (src/modules/stats), in the same transaction as the rows it counts.
    statements.push(
      d1
        .prepare(`INSERT INTO org_daily_stats (org_id, day, contacts_created) VALUES (?1, ?2, ?3)
          ON CONFLICT (org_id, day) DO UPDATE SET contacts_created = contacts_created + excluded.contacts_created`)
        .bind(org, cursor.now.slice(0, 10), newCount),
    );
  }
  if (plan.updated.length) {
    statements.push(
      d1
        .prepare(
          `UPDATE contacts SET name = COALESCE(j.value ->> 1, contacts.name), note = COALESCE(j.value ->> 2, contacts.note), updated_at = ?3
           FROM json_each(?2) j
           WHERE contacts.id = j.value ->> 0 AND +contacts.org_id = ?1`,
        )
        .bind(org, JSON.stringify(plan.updated.map((c) => [c.existingId, c.name, c.note])), cursor.now),
    );
  }

  const contacts = [...plan.created, ...plan.updated];
  const addresses: unknown[] = [];
  const attributeDeletes: unknown[] = [];
  const attributes: unknown[] = [];
  const tags: unknown[] = [];
  for (const contact of contacts) {
    const id = contact.existingId;
    const index = contact.existingId === null ? contact.newIndex : null;
    contact.addresses.forEach((a, position) => {
      addresses.push([id, index, a.type, a.value, position]);
    });
    for (const [fieldId, value] of contact.attributes) {
      if (id !== null) attributeDeletes.push([id, fieldId]);
      for (const row of attributeRows(value)) attributes.push([id, index, fieldId, ...row]);
    }
    for (const tagId of contact.tagIds) tags.push([id, index, tagId]);
  }

  if (addresses.length) {
    statements.push(
      d1
        .prepare(
          `INSERT INTO contact_addresses (org_id, contact_id, type, value, position)
           SELECT ?1, ${ref}, j.value ->> 2, j.value ->> 3,
             CASE WHEN j.value ->> 0 IS NULL THEN j.value ->> 4
                  ELSE (SELECT COALESCE(MAX(position), -1) + 1 FROM contact_addresses WHERE contact_id = j.value ->> 0) + (j.value ->> 4) END
           FROM ${base}, json_each(?2) j`,
        )
        .bind(org, JSON.stringify(addresses), newCount),
    );
  }
  if (attributeDeletes.length) {
    statements.push(
      d1
        .prepare(
          `DELETE FROM contact_attributes WHERE id IN (
             SELECT a.id FROM json_each(?2) j CROSS JOIN contact_attributes a
             WHERE a.contact_id = j.value ->> 0 AND a.field_id = j.value ->> 1 AND +a.org_id = ?1)`,
        )
        .bind(org, JSON.stringify(attributeDeletes)),
    );
  }
  if (attributes.length) {
    statements.push(
      d1
        .prepare(
          `INSERT INTO contact_attributes (org_id, contact_id, field_id, value_text, value_number, option_id)
           SELECT ?1, ${ref}, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5
           FROM ${base}, json_each(?2) j`,
        )
        .bind(org, JSON.stringify(attributes), newCount),
    );
  }
  if (tags.length) {
    statements.push(
      d1
        .prepare(
          `INSERT INTO contact_tags (org_id, contact_id, tag_id)
           SELECT ?1, ${ref}, j.value ->> 2
           FROM ${base}, json_each(?2) j
           WHERE true ON CONFLICT DO NOTHING`,
        )
        .bind(org, JSON.stringify(tags), newCount),
    );
  }
  if (cursor.subscriptionIds.length && contacts.length) statements.push(joinSubscriptions(d1, contacts, cursor, base, ref));
  statements.push(cursorStatement(d1, cursor));
  return statements;
}

/**
 * Every contact of the batch (created or updated) joins the import's subscriptions as a confirmed member, source
 * 'import': the organisation collected the consent. A membership that already has a row keeps it, except a pending one,
 * which the organisation's word confirms. So an import never resubscribes anyone who unsubscribed, as listmonk's import
 * leaves an existing list subscription's status as it is (issue 39): leaving is the person's word and only the person
 * (the preferences page) or the organisation one contact at a time (PUT /contact/{id}/memberships) undoes it. Only
 * the organisation's subscriptions still there are joined (one deleted since the import started is left out).
 */
function joinSubscriptions(d1: D1Database, contacts: BatchPlan['created'], cursor: CursorUpdate, base: string, ref: string): D1PreparedStatement {
  const rows = contacts.map((c) => (c.existingId === null ? [null, c.newIndex] : [c.existingId, null]));
  return d1
    .prepare(
      `INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source, created_at, updated_at)
       SELECT ?1, s.id, ${ref}, 'confirmed', 'import', ?5, ?5
       FROM ${base}, json_each(?2) j,
         (SELECT id FROM subscriptions WHERE org_id = ?1 AND id IN (SELECT value FROM json_each(?4))) s
       WHERE true
       ON CONFLICT (subscription_id, contact_id) DO UPDATE SET status = 'confirmed', source = 'import', expires_at = NULL, updated_at = ?5
       WHERE status = 'pending'`,
    )
    .bind(cursor.orgId, JSON.stringify(rows), contacts.filter((c) => c.existingId === null).length, JSON.stringify(cursor.subscriptionIds), cursor.now);
}

/** One contact_attributes row per value: [value_text, value_number, option_id]. */
function attributeRows(value: ResolvedAttribute): [string | null, number | null, number | null][] {
  if (value.optionIds) return value.optionIds.map((id) => [null, null, id]);
  return [[value.text, value.number, null]];
}

/**
 * Fails the whole batch (json() of a non-JSON text raises an error) unless the import is still processing
 * at the cursor this run started the batch from: two runs of one import (a redelivered message while the
 * first still runs) can never both commit the same rows.
 */
function guard(d1: D1Database, cursor: CursorUpdate): D1PreparedStatement {
  return d1
    .prepare(
      `SELECT json(CASE WHEN (SELECT cursor_bytes FROM imports WHERE id = ?1 AND org_id = ?2 AND status = 'processing') = ?3
                        THEN '1' ELSE '${CURSOR_MOVED}' END) AS ok`,
    )
    .bind(cursor.importId, cursor.orgId, cursor.expectedBytes);
}

function cursorStatement(d1: D1Database, cursor: CursorUpdate): D1PreparedStatement {
  return d1
    .prepare(
      `UPDATE imports SET cursor_bytes = ?3, cursor_row = ?4, created_count = created_count + ?5,
         updated_count = updated_count + ?6, rejected_count = rejected_count + ?7,
         rejections = COALESCE(?8, rejections), updated_at = ?9
       WHERE id = ?1 AND org_id = ?2`,
    )
    .bind(cursor.importId, cursor.orgId, cursor.bytes, cursor.row, cursor.created, cursor.updated, cursor.rejected, cursor.rejections, cursor.now);
}
