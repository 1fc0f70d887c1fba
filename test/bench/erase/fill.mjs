// Writes bench:erase's data set into the local platform's files while wrangler dev is stopped: contacts into D1's
// SQLite file, the ledger's messages with their tracking events and event stream into the organisation's ledger file,
// and the archived year as R2 objects (through a Miniflare instance on the same state, the engine wrangler dev's R2
// runs on) with the rows the archive path writes beside each: D1's message_archives and stored_files (and the
// organisation's file volume) and the ledger's archive index (archive_holders). Running src/modules/retention/archive.ts
// itself on a million messages would mean inserting them into the ledger first and 2,000 cron chunks through the
// worker; the objects are made here as it makes them (chunks.mjs, rows.mjs, the index by its own holder functions),
// and the first chunk's index is checked against archive-index.ts's chunkHolders.
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { ROOT } from '../../../scripts/lib/run.mjs';
import '../support/ts-source.mjs';
import { isoAt } from './chunks.mjs';
import { rowMaker } from './rows.mjs';

const { addressDigest } = await import('../../../src/modules/privacy/address-digest.ts');
const { addressHolder, chunkHolders, contactHolder } = await import('../../../src/modules/retention/archive-index.ts');
const { orgFilesPrefix } = await import('../../../src/lib/r2-prefix.ts');

const gzipAsync = promisify(gzip);
const DAY = 86_400_000;
/** Chunks made, compressed and stored at once. */
const IN_FLIGHT = 6;
/** The event stream keeps 30 days (src/modules/event). */
const STREAM_DAYS = 30;

/** The R2 bucket bound as FILES in wrangler.toml (its name is where the local state keeps it). */
function filesBucketName() {
  const toml = readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8');
  const name = /\[\[r2_buckets\]\][^[]*?binding\s*=\s*"FILES"[^[]*?bucket_name\s*=\s*"([^"]+)"/.exec(toml)?.[1];
  if (!name) throw new Error('no FILES bucket in wrangler.toml');
  return name;
}

/** The local R2 bucket of the platform's state, as wrangler dev keeps it; answers { bucket, close }. */
export async function openLocalFiles(stateDir) {
  const name = filesBucketName();
  const mf = new Miniflare(
    convertV4MiniflareOptions({ modules: true, script: '', resourcePersistencePath: path.join(stateDir, 'v3'), r2Buckets: { FILES: name } }),
  );
  return { bucket: await mf.getR2Bucket('FILES'), name, close: () => mf.dispose() };
}

/**
 * The organisation's contacts in D1: `pool` of them ("Person <x>", person<x>@<poolDomain>) and the persons the bench
 * follows (tagged Customers, the first unsubscribed from a subscription with a comment). Answers contactOf(pool index)
 * and the persons with their ids.
 */
export function addContacts(d1File, orgId, pool, poolDomain, persons) {
  const db = new Database(d1File);
  try {
    db.pragma('foreign_keys = ON');
    const at = isoAt(Date.now() - 400 * DAY);
    const first = db.transaction(() => {
      db.prepare(`WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE x < ${pool})
        INSERT INTO contacts (org_id, name, created_at, updated_at) SELECT ?, 'Person ' || x, ?, ? FROM k`).run(orgId, at, at);
      const { lo, hi } = db.prepare("SELECT min(id) AS lo, max(id) AS hi FROM contacts WHERE org_id = ? AND name LIKE 'Person %'").get(orgId);
      if (hi - lo + 1 !== pool) throw new Error(`the pool's contact ids are not contiguous (${lo}..${hi} for ${pool})`);
      db.prepare(
        "INSERT INTO contact_addresses (org_id, contact_id, type, value, position) SELECT org_id, id, 'email', 'person' || (id - ? + 1) || ?, 0 FROM contacts WHERE org_id = ? AND id BETWEEN ? AND ?",
      ).run(lo, `@${poolDomain}`, orgId, lo, hi);
      return lo;
    })();
    const tag = db.prepare("INSERT INTO tags (org_id, name) VALUES (?, 'Customers') RETURNING id").get(orgId).id;
    const subscription = db.prepare('SELECT id FROM subscriptions WHERE org_id = ? ORDER BY id LIMIT 1').get(orgId)?.id;
    const withIds = persons.map((person, p) => {
      const { id } = db.prepare('INSERT INTO contacts (org_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id').get(orgId, person.name, at, at);
      db.prepare("INSERT INTO contact_addresses (org_id, contact_id, type, value, position) VALUES (?, ?, 'email', ?, 0)").run(orgId, id, person.address);
      db.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)').run(orgId, id, tag);
      if (p === 0 && subscription) {
        db.prepare("INSERT INTO unsubscribes (org_id, contact_id, subscription_id, reason, comment, source) VALUES (?, ?, ?, NULL, ?, 'page')").run(
          orgId,
          id,
          subscription,
          `Too many mails, ${person.name.split(' ')[0]} here`,
        );
      }
      return { ...person, id };
    });
    // The contacts' events (migration 0029's triggers) would be absorbed into the stream: a live database has
    // delivered them long ago.
    db.prepare('DELETE FROM event_outbox WHERE org_id = ?').run(orgId);
    return { contactOf: (x) => ({ id: first + x, name: `Person ${x + 1}`, address: `person${x + 1}@${poolDomain}` }), persons: withIds };
  } finally {
    db.close();
  }
}

const insertSql = (table, row) => {
  const names = Object.keys(row);
  return `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`;
};

/**
 * The ledger's own messages (the plan of its retention window), their tracking events and the last 30 days of the
 * event stream (message.sent or .failed, and the hits' events, which the tracking trigger records).
 */
export function addLedgerMessages(ledgerFile, plan, org) {
  const ledger = new Database(ledgerFile);
  try {
    const rows = rowMaker(plan, org);
    const messages = ledger.prepare(insertSql('messages', org.messageTemplate));
    const events = ledger.prepare(insertSql('tracking_events', org.eventTemplate));
    const stepped = 20_000;
    for (let from = 0; from < plan.n; from += stepped) {
      ledger.transaction(() => {
        for (let i = from; i < Math.min(plan.n, from + stepped); i++) {
          const { message, events: hits } = rows.message(i);
          messages.run(message);
          for (const hit of hits) events.run(hit);
        }
      })();
    }
    const since = isoAt(Date.now() - STREAM_DAYS * DAY);
    ledger.transaction(() => {
      ledger.prepare('DELETE FROM events WHERE at < ?').run(since);
      ledger
        .prepare(`INSERT INTO events (id, type, at, data)
          SELECT 'evt_' || lower(hex(randomblob(16))), 'message.' || m.status, m.updated_at,
            json_object('message', json(v.message), 'metadata', json(v.metadata), 'error', m.error)
          FROM messages m JOIN event_messages v ON v.id = m.id WHERE m.created_at >= ? ORDER BY m.created_at`)
        .run(since);
      // No endpoint takes them in the bench; any delivery made here would only be noise in the run.
      ledger.prepare('DELETE FROM webhook_deliveries').run();
    })();
    ledger.exec('ANALYZE');
  } finally {
    ledger.close();
  }
}

/**
 * The archived year: each chunk as the archive path writes it (gzip NDJSON of { message, events } lines under
 * orgs/{org}/archive/messages/{month}/{first}-{last}.ndjson.gz), its message_archives and stored_files rows (D1) and
 * its holders (the ledger's archive index). Answers { stored (one row per object), holding (per person: Map key ->
 * their messages in it), bytes, holders }.
 */
export async function addArchive({ bucket, d1File, ledgerFile, plan, chunks, org, retentionDays, secretsKey, persons }) {
  const rows = rowMaker(plan, org);
  const env = { SECRETS_KEY: secretsKey };
  const digests = new Map();
  const digestOf = (address) => {
    let digest = digests.get(address);
    if (!digest) digests.set(address, (digest = addressDigest(env, org.orgId, address)));
    return digest;
  };
  const holding = persons.map(() => new Map());
  const stored = [];
  let holderCount = 0;
  const ledger = new Database(ledgerFile);
  const addHolder = ledger.prepare('INSERT OR IGNORE INTO archive_holders (holder, key) VALUES (?, ?)');
  const one = async (chunk, index) => {
    const lines = [];
    const messages = [];
    for (let i = chunk.from; i < chunk.to; i++) {
      const line = rows.message(i);
      messages.push(line.message);
      lines.push(JSON.stringify(line));
    }
    const first = messages[0].id;
    const last = messages[messages.length - 1].id;
    const key = `${orgFilesPrefix(org.orgId)}archive/messages/${chunk.month}/${first}-${last}.ndjson.gz`;
    // chunkHolders' rule: each contact once, each address once, by its digest.
    const holders = new Set();
    for (const m of messages) if (m.contact_id != null) holders.add(contactHolder(m.contact_id));
    for (const address of new Set(messages.map((m) => m.to_address))) holders.add(addressHolder(await digestOf(address)));
    if (index === 0) {
      const real = new Set(await chunkHolders(env, org.orgId, messages));
      if (real.size !== holders.size || [...real].some((h) => !holders.has(h))) throw new Error(`the index of ${key} differs from chunkHolders'`);
    }
    for (const m of messages) {
      const p = plan.recipient[m.id - org.firstId];
      if (p < 0) holding[-1 - p].set(key, (holding[-1 - p].get(key) ?? 0) + 1);
    }
    const body = await gzipAsync(`${lines.join('\n')}\n`);
    await bucket.put(key, body, { httpMetadata: { contentType: 'application/gzip' } });
    const archivedAt = isoAt(plan.time[chunk.to - 1] + retentionDays * DAY + 15 * 60_000);
    stored.push({ key, month: chunk.month, messages: messages.length, first, last, bytes: body.length, archivedAt });
    return { key, holders };
  };
  try {
    for (let at = 0; at < chunks.length; at += IN_FLIGHT) {
      const made = await Promise.all(chunks.slice(at, at + IN_FLIGHT).map((chunk, k) => one(chunk, at + k)));
      ledger.transaction(() => {
        for (const { key, holders } of made) for (const holder of holders) addHolder.run(holder, key);
      })();
      holderCount += made.reduce((s, m) => s + m.holders.size, 0);
    }
  } finally {
    ledger.close();
  }
  writeArchiveRows(d1File, org.orgId, stored);
  return { stored, holding, bytes: stored.reduce((s, f) => s + f.bytes, 0), holders: holderCount };
}

/** D1's rows of the archive objects: message_archives, stored_files and the organisation's file volume. */
function writeArchiveRows(d1File, orgId, stored) {
  const d1 = new Database(d1File);
  try {
    const archive = d1.prepare('INSERT INTO message_archives (key, org_id, month, messages, first_id, last_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const file = d1.prepare("INSERT INTO stored_files (key, org_id, kind, bytes, created_at) VALUES (?, ?, 'archive', ?, ?)");
    d1.transaction(() => {
      for (const s of stored) {
        archive.run(s.key, orgId, s.month, s.messages, s.first, s.last, s.archivedAt);
        file.run(s.key, orgId, s.bytes, s.archivedAt);
      }
      d1.prepare(
        'INSERT INTO org_usage (org_id, file_bytes) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET file_bytes = file_bytes + excluded.file_bytes',
      ).run(
        orgId,
        stored.reduce((s, f) => s + f.bytes, 0),
      );
    })();
  } finally {
    d1.close();
  }
}
