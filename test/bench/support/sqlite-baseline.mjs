// The better-sqlite3 baselines: the same schema (every migration in migrations/, so the same tables and
// indexes) in a plain SQLite file, written and read directly from Node with no worker, queue or network.
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../scripts/lib/run.mjs';
import { BENCH_FIELDS, contactValues } from './contacts-csv.mjs';

/** A new SQLite database at `file` with every migration applied (WAL, synchronous=NORMAL). */
export function createSchemaDb(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const dir = path.join(ROOT, 'migrations');
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    for (const statement of readFileSync(path.join(dir, name), 'utf8').split('--> statement-breakpoint')) {
      if (statement.trim()) db.exec(statement);
    }
  }
  return db;
}

/**
 * Inserts contacts 0..n-1 of the benchmark file (contact, addresses, field values, tags) with prepared
 * statements in transactions of `batch` rows; tags and options exist beforehand. Returns seconds taken.
 */
export function insertContactsDirectly(db, n, batch = 1000) {
  const org = db.prepare("INSERT INTO organizations (name, domain) VALUES ('Acme', 'acme') RETURNING id").get().id;
  const fieldIds = {};
  const optionIds = {};
  for (const f of BENCH_FIELDS) {
    fieldIds[f.alias] = db.prepare('INSERT INTO fields (org_id, name, alias, type) VALUES (?, ?, ?, ?) RETURNING id').get(org, f.name, f.alias, f.type).id;
    if (f.type === 'select' || f.type === 'multiselect') {
      for (const [i, value] of ['gold', 'silver', 'bronze', 'platinum', 'music', 'art', 'sport', 'travel'].entries()) {
        optionIds[`${f.alias}:${value}`] = db
          .prepare('INSERT INTO field_options (org_id, field_id, value, position) VALUES (?, ?, ?, ?) RETURNING id')
          .get(org, fieldIds[f.alias], value, i).id;
      }
    }
  }
  const tagIds = {};
  for (const name of ['news', ...Array.from({ length: 20 }, (_, i) => `tag-${i}`)]) {
    tagIds[name] = db.prepare('INSERT INTO tags (org_id, name) VALUES (?, ?) RETURNING id').get(org, name).id;
  }
  const contact = db.prepare('INSERT INTO contacts (org_id, name, note) VALUES (?, ?, ?)');
  const address = db.prepare('INSERT INTO contact_addresses (org_id, contact_id, type, value, position) VALUES (?, ?, ?, ?, ?)');
  const attribute = db.prepare('INSERT INTO contact_attributes (org_id, contact_id, field_id, value_text, value_number, option_id) VALUES (?, ?, ?, ?, ?, ?)');
  const tag = db.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)');
  const insertRange = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const v = contactValues(i);
      const id = Number(contact.run(org, v.name, v.note).lastInsertRowid);
      address.run(org, id, 'email', v.email, 0);
      if (v.phone) address.run(org, id, 'phone', v.phone, 1);
      attribute.run(org, id, fieldIds.city, v.city, null, null);
      attribute.run(org, id, fieldIds.age, null, v.age, null);
      attribute.run(org, id, fieldIds.vip, null, v.vip ? 1 : 0, null);
      attribute.run(org, id, fieldIds.plan, null, null, optionIds[`plan:${v.plan}`]);
      for (const interest of v.interests) attribute.run(org, id, fieldIds.interests, null, null, optionIds[`interests:${interest}`]);
      for (const name of v.tags) tag.run(org, id, tagIds[name]);
    }
  });
  const started = performance.now();
  for (let from = 0; from < n; from += batch) insertRange(from, Math.min(n, from + batch));
  return (performance.now() - started) / 1000;
}
