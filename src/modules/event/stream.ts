// The ledger's side of the stream's reads and its keeping (the `events` table of ledger step 14): a page after a
// seq for the pull API, and the events past EVENT_KEEP_MS deleted a bounded chunk at a time.

export interface StoredEvent {
  seq: number;
  id: string;
  type: string;
  at: string;
  data: string;
}

/** Up to `limit` events after `afterSeq`, oldest first; only `types` when given. */
export function readStream(sql: SqlStorage, afterSeq: number, types: readonly string[] | null, limit: number): StoredEvent[] {
  const rows = types
    ? sql.exec<Record<string, SqlStorageValue>>(
        'SELECT seq, id, type, at, data FROM events WHERE seq > ? AND type IN (SELECT value FROM json_each(?)) ORDER BY seq LIMIT ?',
        afterSeq,
        JSON.stringify(types),
        limit,
      )
    : sql.exec<Record<string, SqlStorageValue>>('SELECT seq, id, type, at, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?', afterSeq, limit);
  return rows.toArray().map((r) => ({ seq: Number(r.seq), id: String(r.id), type: String(r.type), at: String(r.at), data: String(r.data) }));
}

/** Events deleted at most per call. */
export const PRUNE_CHUNK = 2_000;

/**
 * Deletes up to `chunk` events older than `before` (ISO 8601), with the deliveries made for them (long finished or
 * given up by then); answers how many events went.
 */
export function pruneStream(storage: DurableObjectStorage, before: string, chunk = PRUNE_CHUNK): number {
  return storage.transactionSync(() => {
    const seqs = storage.sql
      .exec<{ seq: number }>('SELECT seq FROM events WHERE at < ? ORDER BY at LIMIT ?', before, chunk)
      .toArray()
      .map((r) => Number(r.seq));
    if (seqs.length === 0) return 0;
    const list = JSON.stringify(seqs);
    // By each endpoint's key (endpoint_id, event_seq): event_seq alone has no index.
    storage.sql.exec(
      'DELETE FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM webhook_endpoints) AND event_seq IN (SELECT value FROM json_each(?))',
      list,
    );
    storage.sql.exec('DELETE FROM events WHERE seq IN (SELECT value FROM json_each(?))', list);
    return seqs.length;
  });
}
