import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { rawBatch, type BatchStatement } from '../crud/raw-batch';
import { addDaily } from '../stats/daily';
import { publishBroadcastProgress } from '../broadcast/progress';
import { ENGAGEMENT_COUNTERS } from '../broadcast/engagement-counters';
import { loadBroadcast } from '../broadcast/run-store';
import { classifyMessageHits, tally, type ClassifiedHit, type MessageTally, type StoredHit } from './context';
import { hashAddress } from './address-hash';
import { served } from '../ledger/owner';
import { blockOf } from '../ledger/ids';
import { ledgerOfMessage } from '../ledger/registry';
import type { TrackingHit } from './hit';
import { ERASED_ADDRESS } from '../privacy/erase/erased-message';

// The events queue's consumer of tracking hits, a whole queue batch at a time, each organisation's share counted by
// its ledger (countHits), which runs countOrgHits for one group at a time: it reads the messages the hits
// name and their earlier hits, classifies every hit of each message again (a burst or a honeypot click can
// expose hits that came before it), and writes in one transaction of the ledger the new hits, the classes that changed,
// each message's counters and the difference they make to its broadcast's totals and per-link counts. A hit
// id is inserted once, so a redelivered batch changes nothing: the counters are always what the stored hits say.

interface MessageRow {
  id: number;
  org_id: number;
  broadcast_id: number | null;
  sent_at: string | null;
  /** 1 when the message's recipient was erased at their request. */
  erased: number;
}

interface EventRow {
  id: string;
  message_id: number;
  kind: 'open' | 'click';
  link_index: number | null;
  url: string | null;
  class: ClassifiedHit['class'];
  reason: ClassifiedHit['reason'];
  method: string;
  user_agent: string | null;
  ip_hash: string | null;
  asn: number | null;
  as_organization: string | null;
  at: string;
}

const storedOf = (e: EventRow): StoredHit & Pick<ClassifiedHit, 'class' | 'reason'> => ({
  id: e.id,
  kind: e.kind,
  method: e.method,
  userAgent: e.user_agent,
  asn: e.asn,
  asOrganization: e.as_organization,
  honeypot: e.link_index === -1,
  at: e.at,
  ipHash: e.ip_hash,
  linkIndex: e.link_index,
  url: e.url,
  class: e.class,
  reason: e.reason,
});

/** A hit from the queue as stored, its address replaced by the address's hash (the address is never kept). */
const hitOf = (h: TrackingHit, ipHash: string | null): StoredHit => ({
  id: h.id,
  kind: h.kind,
  method: h.method,
  userAgent: h.ua,
  asn: h.asn,
  asOrganization: h.aso,
  honeypot: h.h === 1,
  at: h.at,
  ipHash,
  linkIndex: h.l ?? null,
  url: h.u ?? null,
});

type BroadcastDelta = Record<(typeof ENGAGEMENT_COUNTERS)[number], number>;

function broadcastFigures(t: MessageTally): BroadcastDelta {
  return {
    opens: t.opens_total,
    opens_unique: t.opens_unique,
    human_opens: t.human_opens,
    human_opens_unique: t.human_opened_at ? 1 : 0,
    clicks: t.clicks_total,
    clicks_unique: t.clicks_unique,
    human_clicks: t.human_clicks,
    human_clicks_unique: t.human_clicked_at ? 1 : 0,
  };
}

interface LinkDelta {
  b: number;
  l: number;
  u: string;
  c: number;
  cu: number;
  h: number;
  hu: number;
}

function linkDeltas(broadcastId: number, before: MessageTally, after: MessageTally): LinkDelta[] {
  const out: LinkDelta[] = [];
  for (const [index, link] of after.links) {
    const was = before.links.get(index) ?? { clicks: 0, human_clicks: 0 };
    const d = {
      b: broadcastId,
      l: index,
      u: link.url,
      c: link.clicks - was.clicks,
      cu: Number(link.clicks > 0) - Number(was.clicks > 0),
      h: link.human_clicks - was.human_clicks,
      hu: Number(link.human_clicks > 0) - Number(was.human_clicks > 0),
    };
    if (d.c || d.cu || d.h || d.hu) out.push(d);
  }
  return out;
}

/**
 * Counts a batch of hits (any organisations). Safe to run twice on the same hits. The hits go to the ledger their
 * message is in (its id's block names it), one call per ledger, all at once: the ledger counts its groups one at a time
 * (a message's hits are counted against its earlier ones), so no consumer needs to be the only one running.
 * Addresses are hashed here, before the call: they never reach the ledger.
 */
export async function countHits(env: Env, db: Database, hits: TrackingHit[]): Promise<void> {
  const byLedger = new Map<string, TrackingHit[]>();
  for (const h of hits) {
    const hashed: TrackingHit = { ...h, address: null, ih: h.ih !== undefined ? h.ih : await hashAddress(env.SECRETS_KEY, h.address, new Date(h.at)) };
    const key = `${h.o}:${blockOf(h.m)}`;
    const list = byLedger.get(key);
    if (list) list.push(hashed);
    else byLedger.set(key, [hashed]);
  }
  await Promise.all(
    [...byLedger.values()].map(async (orgHits) => {
      const ledger = await ledgerOfMessage(env, db, orgHits[0].o, orgHits[0].m);
      // An organisation that is gone: nothing of it is left to count into.
      if (ledger) served(await ledger.stub.countHits(ledger.owner, orgHits));
    }),
  );
}

/**
 * Counts one organisation's hits, their addresses hashed (countHits). Called by the organisation's ledger
 * (src/modules/ledger/org-ledger.ts), which runs one group at a time.
 */
export async function countOrgHits(env: Env, db: Database, orgId: number, hits: TrackingHit[]): Promise<void> {
  const messageIds = [...new Set(hits.map((h) => h.m))];
  const ids = JSON.stringify(messageIds);
  // A message of another organisation is never found: the token's organisation is part of every lookup.
  const messages = await db.all<MessageRow>(sql`
    SELECT id, org_id, broadcast_id, sent_at, to_address = ${ERASED_ADDRESS} AS erased FROM messages WHERE id IN (SELECT value FROM json_each(${ids})) AND +org_id = ${orgId}`);
  const events = await db.all<EventRow>(sql`
    SELECT id, message_id, kind, link_index, url, class, reason, method, user_agent, ip_hash, asn, as_organization, at
    FROM tracking_events WHERE org_id = ${orgId} AND message_id IN (SELECT value FROM json_each(${ids}))`);
  const known = new Map(messages.map((m) => [m.id, m]));
  const stored = new Map<number, EventRow[]>();
  for (const e of events) {
    const list = stored.get(e.message_id);
    if (list) list.push(e);
    else stored.set(e.message_id, [e]);
  }
  const storedIds = new Set(events.map((e) => e.id));

  const inserts: Record<string, unknown>[] = [];
  const reclassified: { i: string; c: string; r: string }[] = [];
  const messageUpdates: Record<string, unknown>[] = [];
  const broadcastDeltas = new Map<number, BroadcastDelta>();
  const links: LinkDelta[] = [];
  // The organisation's day (src/modules/stats): the same differences, summed over its messages.
  const daily = { opens: 0, human_opens: 0, clicks: 0, human_clicks: 0, opened: 0, human_opened: 0, clicked: 0, human_clicked: 0 };

  // The hits not stored yet (a redelivered batch brings some again), by message.
  const freshByMessage = new Map<number, Map<string, StoredHit>>();
  for (const h of hits) {
    if (storedIds.has(h.id)) continue;
    const fresh = freshByMessage.get(h.m) ?? new Map<string, StoredHit>();
    fresh.set(h.id, hitOf(h, h.ih ?? null));
    freshByMessage.set(h.m, fresh);
  }

  for (const [messageId, fresh] of freshByMessage) {
    const message = known.get(messageId);
    const old = (stored.get(messageId) ?? []).map(storedOf);
    const oldById = new Map(old.map((o) => [o.id, o]));
    const classified = classifyMessageHits([...old, ...fresh.values()], message?.sent_at ?? null);
    for (const hit of classified) {
      if (fresh.has(hit.id)) {
        // A late hit on an erased message (src/modules/privacy) counts, but keeps nothing of the person.
        const keepsPerson = !message?.erased;
        inserts.push({
          i: hit.id,
          m: messageId,
          b: message?.broadcast_id ?? null,
          k: hit.kind,
          l: hit.linkIndex,
          u: keepsPerson ? hit.url : null,
          c: hit.class,
          r: hit.reason,
          me: hit.method,
          ua: keepsPerson ? hit.userAgent : null,
          ip: keepsPerson ? hit.ipHash : null,
          asn: hit.asn,
          aso: hit.asOrganization,
          at: hit.at,
        });
      } else {
        const before = oldById.get(hit.id)!;
        if (before.class !== hit.class || before.reason !== hit.reason) reclassified.push({ i: hit.id, c: hit.class, r: hit.reason });
      }
    }
    // Hits on a message that is gone are kept (never dropped) but count towards nothing.
    if (!message) continue;
    const before = tally(old);
    const after = tally(classified);
    messageUpdates.push({
      i: messageId,
      ot: after.opens_total,
      ou: after.opens_unique,
      oa: after.opened_at,
      ho: after.human_opens,
      hoa: after.human_opened_at,
      ct: after.clicks_total,
      cu: after.clicks_unique,
      ca: after.clicked_at,
      hc: after.human_clicks,
      hca: after.human_clicked_at,
    });
    daily.opens += after.opens_total - before.opens_total;
    daily.human_opens += after.human_opens - before.human_opens;
    daily.clicks += after.clicks_total - before.clicks_total;
    daily.human_clicks += after.human_clicks - before.human_clicks;
    // Recipients who opened (a click counts as an open) and who clicked, on the day they first did: "opened" is the
    // same figure as a broadcast's recipients who opened, summed over the organisation's messages.
    daily.opened += Number(after.opened_at !== null) - Number(before.opened_at !== null);
    daily.human_opened += Number(after.human_opened_at !== null) - Number(before.human_opened_at !== null);
    daily.clicked += Number(after.clicked_at !== null) - Number(before.clicked_at !== null);
    daily.human_clicked += Number(after.human_clicked_at !== null) - Number(before.human_clicked_at !== null);
    if (message.broadcast_id === null) continue;
    const was = broadcastFigures(before);
    const now = broadcastFigures(after);
    const sum = broadcastDeltas.get(message.broadcast_id) ?? (Object.fromEntries(ENGAGEMENT_COUNTERS.map((k) => [k, 0])) as BroadcastDelta);
    for (const k of ENGAGEMENT_COUNTERS) sum[k] += now[k] - was[k];
    broadcastDeltas.set(message.broadcast_id, sum);
    links.push(...linkDeltas(message.broadcast_id, before, after));
  }
  if (inserts.length === 0) return;

  const statements: BatchStatement[] = [
    db.run(sql`
      INSERT OR IGNORE INTO tracking_events (id, org_id, message_id, broadcast_id, kind, link_index, url, class, reason, method, user_agent, ip_hash, asn, as_organization, at)
      SELECT j.value ->> 'i', ${orgId}, j.value ->> 'm', j.value ->> 'b', j.value ->> 'k', j.value ->> 'l', j.value ->> 'u', j.value ->> 'c', j.value ->> 'r',
        j.value ->> 'me', j.value ->> 'ua', j.value ->> 'ip', j.value ->> 'asn', j.value ->> 'aso', j.value ->> 'at'
      FROM json_each(${JSON.stringify(inserts)}) j`),
  ];
  if (reclassified.length) {
    statements.push(
      db.run(sql`
      UPDATE tracking_events SET class = j.value ->> 'c', reason = j.value ->> 'r'
      FROM json_each(${JSON.stringify(reclassified)}) j WHERE tracking_events.id = j.value ->> 'i' AND +tracking_events.org_id = ${orgId}`),
    );
  }
  if (messageUpdates.length) {
    statements.push(
      db.run(sql`
      UPDATE messages SET opens_total = j.value ->> 'ot', opens_unique = j.value ->> 'ou', opened_at = j.value ->> 'oa',
        human_opens = j.value ->> 'ho', human_opened_at = j.value ->> 'hoa', clicks_total = j.value ->> 'ct',
        clicks_unique = j.value ->> 'cu', clicked_at = j.value ->> 'ca', human_clicks = j.value ->> 'hc', human_clicked_at = j.value ->> 'hca'
      FROM json_each(${JSON.stringify(messageUpdates)}) j WHERE messages.id = j.value ->> 'i' AND +messages.org_id = ${orgId}`),
    );
  }
  for (const [broadcastId, d] of broadcastDeltas) {
    if (ENGAGEMENT_COUNTERS.every((k) => d[k] === 0)) continue;
    statements.push(
      db.run(sql`
      UPDATE broadcasts SET opens = opens + ${d.opens}, opens_unique = opens_unique + ${d.opens_unique},
        human_opens = human_opens + ${d.human_opens}, human_opens_unique = human_opens_unique + ${d.human_opens_unique},
        clicks = clicks + ${d.clicks}, clicks_unique = clicks_unique + ${d.clicks_unique},
        human_clicks = human_clicks + ${d.human_clicks}, human_clicks_unique = human_clicks_unique + ${d.human_clicks_unique}
      WHERE id = ${broadcastId} AND +org_id = ${orgId}`),
    );
  }
  if (links.length) {
    statements.push(
      db.run(sql`
      INSERT INTO broadcast_links (org_id, broadcast_id, link_index, url, clicks, clicks_unique, human_clicks, human_clicks_unique)
      SELECT ${orgId}, j.value ->> 'b', j.value ->> 'l', j.value ->> 'u', j.value ->> 'c', j.value ->> 'cu', j.value ->> 'h', j.value ->> 'hu'
      FROM json_each(${JSON.stringify(links)}) j WHERE true
      ON CONFLICT (org_id, broadcast_id, link_index) DO UPDATE SET clicks = clicks + excluded.clicks,
        clicks_unique = clicks_unique + excluded.clicks_unique, human_clicks = human_clicks + excluded.human_clicks,
        human_clicks_unique = human_clicks_unique + excluded.human_clicks_unique`),
    );
  }
  const dailyStatement = addDaily(db, orgId, daily);
  if (dailyStatement) statements.push(dailyStatement);
  await rawBatch(db, statements);
  // The broadcast view's figures move without a reload (best effort; one push per counted batch).
  for (const broadcastId of broadcastDeltas.keys()) {
    const b = await loadBroadcast(db, orgId, broadcastId);
    if (b) await publishBroadcastProgress(env, orgId, b, { thin: false }).catch(() => undefined);
  }
}
