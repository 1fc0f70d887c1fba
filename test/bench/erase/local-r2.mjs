// The local R2 bucket as wrangler dev keeps it on disk, read from outside while it runs: each object's etag, version
// and upload time from miniflare's object table (to tell which objects an erasure rewrote), and an object's bytes
// from its blob file (to search the archives for a person).
import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

function objectTable(stateDir) {
  const dir = path.join(stateDir, 'v3', 'r2', 'miniflare-R2BucketObject');
  const files = readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`expected one local R2 bucket in ${dir}, found ${files.length}`);
  return path.join(dir, files[0]);
}

/** Every object under `prefix`: Map key -> { etag, version, uploaded, size, blobId }. */
export function objectStates(stateDir, prefix) {
  const db = new Database(objectTable(stateDir), { readonly: true });
  try {
    const rows = db
      .prepare('SELECT key, etag, version, uploaded, size, blob_id AS blobId FROM _mf_objects WHERE substr(key, 1, ?) = ?')
      .all(prefix.length, prefix);
    return new Map(rows.map(({ key, ...state }) => [key, state]));
  } finally {
    db.close();
  }
}

/** The keys whose object was written again between two readings (version, etag or upload time differ), or is gone. */
export function changedKeys(before, after) {
  const changed = [];
  for (const [key, state] of before) {
    const now = after.get(key);
    if (!now || now.version !== state.version || now.etag !== state.etag || now.uploaded !== state.uploaded) changed.push(key);
  }
  return changed;
}

/** The text of an archive object (gzip NDJSON), read from its blob file. */
export function archiveText(stateDir, bucketName, state) {
  return gunzipSync(readFileSync(path.join(stateDir, 'v3', 'r2', bucketName, 'blobs', state.blobId))).toString('utf8');
}

/** How often any of `needles` (lower case) occurs in `text`, case aside. */
export function occurrences(text, needles) {
  const lower = text.toLowerCase();
  let n = 0;
  for (const needle of needles) {
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + needle.length)) n++;
  }
  return n;
}
