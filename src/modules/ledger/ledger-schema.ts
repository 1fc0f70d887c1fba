// The ledger's own SQLite schema, as numbered steps. A ledger applies the steps it has not applied yet when it
// starts (inside blockConcurrencyWhile, which resets the object after 30 seconds: a step must stay cheap, so a
// large index is built in chunks from the alarm instead) and records how far it got in `ledger_schema`. Steps are
// only ever appended, and calls stay additive across versions: a worker one deploy older must still be served.

export const LEDGER_STEPS: readonly string[] = [
  // 1. Who the ledger belongs to: checked on every call, so a client can never reach another organisation's.
  `CREATE TABLE ledger_owner (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    org_id INTEGER NOT NULL,
    ledger_key TEXT NOT NULL,
    generation INTEGER NOT NULL,
    initialised_at INTEGER NOT NULL
  )`,
  // 2. The send gate of each of the organisation's integrations (src/modules/sending/send-gate.ts).
  `CREATE TABLE send_gates (
    integration_id INTEGER PRIMARY KEY,
    next_slot_at INTEGER NOT NULL DEFAULT 0,
    held_until INTEGER NOT NULL DEFAULT 0,
    throttle_level INTEGER NOT NULL DEFAULT 0
  )`,
  // 3. The organisation's messages, tracking events, link clicks, started broadcasts (status and counters: the ledger is
  // their one writer, D1 keeps a projection), kept list totals and daily figures. The tables have D1's names and
  // columns (src/db/schema), so the same drizzle queries run here (ledger-db.ts); org_id is the owner's on every row.
  // The messages' indexes are D1's less what no ledger query needs (bytes per recipient: bench:broadcast).
  // A view stands in for D1's organizations table, which some statements check the organisation exists in.
  `CREATE VIEW organizations AS SELECT org_id AS id FROM ledger_owner;
  CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    org_id INTEGER NOT NULL,
    type TEXT NOT NULL,
    status TEXT DEFAULT 'queued' NOT NULL,
    sender_id INTEGER,
    template_id INTEGER,
    contact_id INTEGER,
    broadcast_id INTEGER,
    is_test INTEGER DEFAULT false NOT NULL,
    from_address TEXT NOT NULL,
    from_name TEXT,
    to_address TEXT NOT NULL,
    subject TEXT,
    body TEXT NOT NULL,
    body_plain TEXT,
    delayed_at TEXT,
    sent_at TEXT,
    external_id TEXT,
    error TEXT,
    attempts INTEGER DEFAULT 0 NOT NULL,
    opens_total INTEGER DEFAULT 0 NOT NULL,
    opens_unique INTEGER DEFAULT 0 NOT NULL,
    clicks_total INTEGER DEFAULT 0 NOT NULL,
    clicks_unique INTEGER DEFAULT 0 NOT NULL,
    clicked_at TEXT,
    created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
    updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
    retryable INTEGER,
    claim TEXT,
    opened_at TEXT,
    human_opens INTEGER DEFAULT 0 NOT NULL,
    human_clicks INTEGER DEFAULT 0 NOT NULL,
    human_opened_at TEXT,
    human_clicked_at TEXT,
    delivery_status TEXT,
    delivery_error_code TEXT,
    contact_name TEXT
  );
  -- Newest first by id within the organisation, page by page at any size: the message list's default order (without
  -- it SQLite sorts every message for a page, 1.5 s at a million: bench:contacts-scale).
  CREATE INDEX messages_org ON messages (org_id);
  CREATE INDEX messages_org_created ON messages (org_id, created_at);
  CREATE INDEX messages_org_status ON messages (org_id, status);
  CREATE INDEX messages_org_broadcast ON messages (org_id, broadcast_id);
  CREATE UNIQUE INDEX messages_broadcast_contact ON messages (broadcast_id, contact_id);
  CREATE INDEX messages_contact ON messages (contact_id);
  -- Twilio's receipts find an SMS by its provider id (sms-hooks/delivery-status.ts): emails, most rows, need none.
  CREATE INDEX messages_sms_external ON messages (external_id) WHERE type = 'sms';
  CREATE TABLE tracking_events (
    id TEXT PRIMARY KEY NOT NULL,
    org_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    broadcast_id INTEGER,
    kind TEXT NOT NULL,
    link_index INTEGER,
    url TEXT,
    class TEXT NOT NULL,
    reason TEXT NOT NULL,
    method TEXT NOT NULL,
    user_agent TEXT,
    ip_hash TEXT,
    asn INTEGER,
    as_organization TEXT,
    at TEXT NOT NULL,
    created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
    updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  CREATE INDEX tracking_events_org_message ON tracking_events (org_id, message_id, at);
  CREATE TABLE broadcast_links (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    org_id INTEGER NOT NULL,
    broadcast_id INTEGER NOT NULL,
    link_index INTEGER NOT NULL,
    url TEXT NOT NULL,
    clicks INTEGER DEFAULT 0 NOT NULL,
    clicks_unique INTEGER DEFAULT 0 NOT NULL,
    human_clicks INTEGER DEFAULT 0 NOT NULL,
    human_clicks_unique INTEGER DEFAULT 0 NOT NULL,
    created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
    updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
  );
  CREATE UNIQUE INDEX broadcast_links_org_broadcast_link ON broadcast_links (org_id, broadcast_id, link_index);
  CREATE TABLE broadcasts (
    id INTEGER PRIMARY KEY NOT NULL,
    org_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    alias TEXT,
    note TEXT,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    sender_id INTEGER,
    template_id INTEGER,
    subscription_id INTEGER,
    do_not_unsubscribe INTEGER DEFAULT false NOT NULL,
    skip_unsubscribed INTEGER DEFAULT true NOT NULL,
    sleep INTEGER DEFAULT 0 NOT NULL,
    delayed_at TEXT,
    started_at TEXT,
    finished_at TEXT,
    contacts TEXT NOT NULL,
    snapshot TEXT,
    last_contact_id INTEGER,
    cursor INTEGER DEFAULT 0 NOT NULL,
    enumerated INTEGER DEFAULT false NOT NULL,
    planned_total INTEGER,
    total INTEGER DEFAULT 0 NOT NULL,
    sent INTEGER DEFAULT 0 NOT NULL,
    failed INTEGER DEFAULT 0 NOT NULL,
    skipped INTEGER DEFAULT 0 NOT NULL,
    opens INTEGER DEFAULT 0 NOT NULL,
    clicks INTEGER DEFAULT 0 NOT NULL,
    unsubscribes INTEGER DEFAULT 0 NOT NULL,
    paused_reason TEXT,
    connect_failures INTEGER DEFAULT 0 NOT NULL,
    held_until TEXT,
    created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
    updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
    track_opens INTEGER DEFAULT true NOT NULL,
    track_clicks INTEGER DEFAULT true NOT NULL,
    opens_unique INTEGER DEFAULT 0 NOT NULL,
    human_opens INTEGER DEFAULT 0 NOT NULL,
    human_opens_unique INTEGER DEFAULT 0 NOT NULL,
    clicks_unique INTEGER DEFAULT 0 NOT NULL,
    human_clicks INTEGER DEFAULT 0 NOT NULL,
    human_clicks_unique INTEGER DEFAULT 0 NOT NULL,
    rev INTEGER DEFAULT 0 NOT NULL,
    projected_rev INTEGER DEFAULT 0 NOT NULL,
    projected_status TEXT,
    projected_at INTEGER DEFAULT 0 NOT NULL
  );
  CREATE INDEX broadcasts_unprojected ON broadcasts (id) WHERE rev > projected_rev;
  CREATE TRIGGER broadcasts_rev AFTER UPDATE OF status, total, sent, failed, skipped, opens, clicks, unsubscribes, paused_reason, held_until,
      finished_at, opens_unique, human_opens, human_opens_unique, clicks_unique, human_clicks, human_clicks_unique, cursor, enumerated ON broadcasts
    WHEN NEW.rev = OLD.rev BEGIN
    UPDATE broadcasts SET rev = OLD.rev + 1 WHERE id = NEW.id;
  END;
  CREATE TABLE list_counts (
    org_id INTEGER NOT NULL,
    list TEXT NOT NULL,
    key INTEGER DEFAULT 0 NOT NULL,
    n INTEGER DEFAULT 0 NOT NULL,
    PRIMARY KEY (org_id, list, key)
  );
  CREATE TRIGGER list_counts_message_insert AFTER INSERT ON messages BEGIN
    INSERT INTO list_counts (org_id, list, key, n) VALUES (NEW.org_id, 'messages', 0, 1)
      ON CONFLICT (org_id, list, key) DO UPDATE SET n = n + 1;
    INSERT INTO list_counts (org_id, list, key, n) SELECT NEW.org_id, 'broadcast_messages', NEW.broadcast_id, 1 WHERE NEW.broadcast_id IS NOT NULL
      ON CONFLICT (org_id, list, key) DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER list_counts_message_delete AFTER DELETE ON messages BEGIN
    UPDATE list_counts SET n = n - 1 WHERE org_id = OLD.org_id AND ((list = 'messages' AND key = 0) OR (list = 'broadcast_messages' AND key = OLD.broadcast_id));
  END;
  CREATE TABLE org_daily_stats (
    org_id INTEGER NOT NULL,
    day TEXT NOT NULL,
    requests INTEGER DEFAULT 0 NOT NULL,
    request_bytes INTEGER DEFAULT 0 NOT NULL,
    emails_sent INTEGER DEFAULT 0 NOT NULL,
    sms_sent INTEGER DEFAULT 0 NOT NULL,
    messages_failed INTEGER DEFAULT 0 NOT NULL,
    opens INTEGER DEFAULT 0 NOT NULL,
    human_opens INTEGER DEFAULT 0 NOT NULL,
    clicks INTEGER DEFAULT 0 NOT NULL,
    human_clicks INTEGER DEFAULT 0 NOT NULL,
    unsubscribes INTEGER DEFAULT 0 NOT NULL,
    contacts_created INTEGER DEFAULT 0 NOT NULL,
    contacts_deleted INTEGER DEFAULT 0 NOT NULL,
    data_bytes INTEGER,
    file_bytes INTEGER,
    PRIMARY KEY (org_id, day)
  )`,
  // 4. D1's broadcasts gained the generation of the ledger a started broadcast lives in (migration 0018); the ledger's
  // copy of the row has the same columns.
  `ALTER TABLE broadcasts ADD ledger_generation INTEGER`,
  // 5. The days' recipients who opened and clicked (migration 0019), the dashboard's one definition of an open.
  `ALTER TABLE org_daily_stats ADD opened INTEGER DEFAULT 0 NOT NULL;
  ALTER TABLE org_daily_stats ADD human_opened INTEGER DEFAULT 0 NOT NULL;
  ALTER TABLE org_daily_stats ADD clicked INTEGER DEFAULT 0 NOT NULL;
  ALTER TABLE org_daily_stats ADD human_clicked INTEGER DEFAULT 0 NOT NULL`,
  // 6. A broadcast's bounces and spam complaints (migration 0020): the bounce handler moves them, bumping rev itself.
  `ALTER TABLE broadcasts ADD bounces INTEGER DEFAULT 0 NOT NULL;
  ALTER TABLE broadcasts ADD complaints INTEGER DEFAULT 0 NOT NULL`,
  // 7. The days' bounces and complaints (migration 0021), counted with the message's delivery report.
  `ALTER TABLE org_daily_stats ADD bounces INTEGER DEFAULT 0 NOT NULL;
  ALTER TABLE org_daily_stats ADD complaints INTEGER DEFAULT 0 NOT NULL`,
  // 8. A broadcast's undelivered SMS (migration 0025): the Twilio receipt moves it, bumping rev itself. SMS broadcasts
  // started before it are counted once here by the outcome rule's condition (each a seek on its own messages), so their
  // figure agrees with their Undelivered filter too; the bumped rev projects the counts into D1.
  `ALTER TABLE broadcasts ADD undelivered INTEGER DEFAULT 0 NOT NULL;
  UPDATE broadcasts SET undelivered = (SELECT count(*) FROM messages m WHERE m.org_id = broadcasts.org_id AND m.broadcast_id = broadcasts.id
      AND m.type = 'sms' AND m.status = 'sent' AND m.delivery_status IN ('undelivered', 'failed')), rev = rev + 1
    WHERE type = 'phone'`,
  // 9. Transactional messages (migration 0027, src/modules/transactional): the key that sent one, the caller's metadata
  // and how it goes out. The lane's watch (lane.ts) finds the single messages still to send by this partial index:
  // broadcasts' millions of rows are not in it.
  `ALTER TABLE messages ADD api_key_id INTEGER;
  ALTER TABLE messages ADD metadata TEXT;
  ALTER TABLE messages ADD send_options TEXT;
  CREATE INDEX messages_lane ON messages (status, updated_at) WHERE broadcast_id IS NULL;`,
  // 10. The send API's idempotency keys (src/modules/idempotency/ledger-side.ts): a key's first answer, kept 24 hours per
  // scope (caller and path). Each begin deletes a few expired rows, oldest first through the created_at index, so the
  // table stays small without a sweep or a cron.
  `CREATE TABLE idempotency_keys (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL,
    status INTEGER,
    body TEXT,
    created_at INTEGER NOT NULL,
    locked_until INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`,
  // 11. The send gate's line for single messages (src/modules/sending/send-gate.ts: SINGLES_SHARE), beside the broadcasts'.
  `ALTER TABLE send_gates ADD next_single_at INTEGER DEFAULT 0 NOT NULL;
  ALTER TABLE send_gates ADD last_single_at INTEGER DEFAULT 0 NOT NULL;
  ALTER TABLE send_gates ADD last_bulk_at INTEGER DEFAULT 0 NOT NULL;`,
  // 12. The token buckets of the organisation's API keys (src/modules/api-key/rate-limit.ts): requests per second and
  // messages per hour of each key and of the organisation, kept in its first ledger so a call never costs a D1 write.
  `CREATE TABLE IF NOT EXISTS api_buckets (name TEXT PRIMARY KEY, tokens REAL NOT NULL, updated_at INTEGER NOT NULL)`,
  // 13. The organisation's revoked API keys, in its first ledger beside their buckets: a request's admission there
  // refuses one at once, while the worker's isolates may still hold the key's row for a few seconds
  // (src/modules/api-key/authenticate.ts).
  `CREATE TABLE IF NOT EXISTS revoked_api_keys (key_id INTEGER PRIMARY KEY)`,
  // 14. The organisation's event stream (issue 38, src/modules/event) and its webhooks' deliveries (src/modules/webhook).
  // An event is recorded by a trigger in the transaction of the change that causes it, so it exists exactly when the
  // change does: a message sent or failed, bounced or complained of, an SMS's receipt, a tracking hit, a broadcast's
  // status. The first ledger also absorbs D1's events (D1's event_outbox). `seq` orders the stream (the pull API's
  // cursor); `id` is the event's id everywhere (and the deliveries' webhook-id). Test messages make no events.
  // webhook_endpoints mirrors D1's endpoints (what the triggers and the dispatcher need); each event inserted makes a
  // pending delivery per enabled endpoint that takes its type and did not start after it (`since`: the endpoint's
  // creation; an event D1 recorded before it and absorbed after is not its), in the same transaction. webhook_mirror_loaded says the
  // mirror was filled from D1 once (a ledger older than its organisation's endpoints: OrgLedger.loadWebhookEndpoints).
  `CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    at TEXT NOT NULL,
    data TEXT NOT NULL
  );
  CREATE INDEX events_at ON events (at);
  CREATE TABLE webhook_endpoints (
    id INTEGER PRIMARY KEY,
    event_types TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    batch INTEGER DEFAULT 0 NOT NULL,
    failing_since INTEGER,
    since TEXT
  );
  CREATE TABLE webhook_deliveries (
    endpoint_id INTEGER NOT NULL,
    event_seq INTEGER NOT NULL,
    state TEXT DEFAULT 'pending' NOT NULL,
    attempts INTEGER DEFAULT 0 NOT NULL,
    next_at INTEGER NOT NULL,
    flight_id TEXT,
    last_status INTEGER,
    last_error TEXT,
    last_ms INTEGER,
    last_at INTEGER,
    delivered_at INTEGER,
    PRIMARY KEY (endpoint_id, event_seq)
  ) WITHOUT ROWID;
  -- Every query of deliveries names its endpoint (there are few): the next due of each, and its pending in event order.
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, state, next_at);
  CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, event_seq) WHERE state = 'pending';
  CREATE INDEX webhook_deliveries_flight ON webhook_deliveries (flight_id) WHERE flight_id IS NOT NULL;
  CREATE TABLE webhook_flights (
    id TEXT PRIMARY KEY NOT NULL,
    endpoint_id INTEGER NOT NULL,
    lease_until INTEGER NOT NULL
  );
  CREATE INDEX webhook_flights_endpoint ON webhook_flights (endpoint_id);
  CREATE TABLE webhook_mirror_loaded (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);
  CREATE TRIGGER events_deliveries AFTER INSERT ON events BEGIN
    INSERT INTO webhook_deliveries (endpoint_id, event_seq, next_at)
    SELECT e.id, NEW.seq, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM webhook_endpoints e
    WHERE e.enabled = 1 AND (e.since IS NULL OR NEW.at >= e.since) AND EXISTS (SELECT 1 FROM json_each(e.event_types) WHERE value IN ('*', NEW.type));
  END;
  CREATE VIEW event_messages AS SELECT id,
    json_object('id', id, 'channel', type, 'broadcast_id', broadcast_id, 'contact_id', contact_id, 'sender_id', sender_id,
      'template_id', template_id, 'to', to_address, 'subject', subject, 'api_key_id', api_key_id) AS message,
    json(metadata) AS metadata
    FROM messages;
  CREATE TRIGGER messages_event_sent AFTER UPDATE OF status ON messages
    WHEN NEW.status IN ('sent', 'failed') AND OLD.status IS NOT NEW.status AND NEW.is_test = 0 BEGIN
    INSERT INTO events (id, type, at, data)
    SELECT 'evt_' || lower(hex(randomblob(16))), 'message.' || NEW.status, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
      json_object('message', json(v.message), 'metadata', json(v.metadata), 'error', NEW.error)
    FROM event_messages v WHERE v.id = NEW.id;
  END;
  CREATE TRIGGER messages_event_delivery AFTER UPDATE OF delivery_status ON messages
    WHEN NEW.delivery_status IS NOT OLD.delivery_status AND NEW.is_test = 0
      AND NEW.delivery_status IN ('bounced', 'soft_bounced', 'complained', 'delivered', 'undelivered', 'failed') BEGIN
    INSERT INTO events (id, type, at, data)
    SELECT 'evt_' || lower(hex(randomblob(16))),
      CASE NEW.delivery_status WHEN 'bounced' THEN 'message.bounced' WHEN 'soft_bounced' THEN 'message.bounced'
        WHEN 'complained' THEN 'message.complained' WHEN 'delivered' THEN 'sms.delivered' ELSE 'sms.undelivered' END,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
      json_object('message', json(v.message), 'metadata', json(v.metadata), 'status', NEW.delivery_status,
        'bounce', CASE NEW.delivery_status WHEN 'bounced' THEN 'hard' WHEN 'soft_bounced' THEN 'soft' END,
        'code', NEW.delivery_error_code)
    FROM event_messages v WHERE v.id = NEW.id;
  END;
  CREATE TRIGGER tracking_events_event AFTER INSERT ON tracking_events BEGIN
    INSERT INTO events (id, type, at, data)
    SELECT 'evt_' || lower(hex(randomblob(16))), CASE NEW.kind WHEN 'click' THEN 'message.clicked' ELSE 'message.opened' END, NEW.at,
      json_object('message', json(v.message), 'metadata', json(v.metadata), 'url', NEW.url, 'link_index', NEW.link_index,
        'human', json(CASE NEW.class WHEN 'human' THEN 'true' ELSE 'false' END), 'class', NEW.class, 'reason', NEW.reason)
    FROM event_messages v JOIN messages m ON m.id = v.id WHERE v.id = NEW.message_id AND m.is_test = 0;
  END;
  CREATE VIEW event_broadcasts AS SELECT id,
    json_object('id', id, 'name', name, 'channel', type, 'status', status, 'total', total, 'sent', sent, 'failed', failed,
      'skipped', skipped, 'paused_reason', paused_reason) AS broadcast
    FROM broadcasts;
  CREATE TRIGGER broadcasts_event_status AFTER UPDATE OF status ON broadcasts
    WHEN NEW.status IS NOT OLD.status AND NEW.status IN ('sending', 'paused', 'finished', 'cancelled') BEGIN
    INSERT INTO events (id, type, at, data)
    SELECT 'evt_' || lower(hex(randomblob(16))),
      CASE WHEN NEW.status = 'sending' AND OLD.status = 'paused' THEN 'broadcast.resumed'
        WHEN NEW.status = 'sending' THEN 'broadcast.started' ELSE 'broadcast.' || NEW.status END,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), json_object('broadcast', json(v.broadcast))
    FROM event_broadcasts v WHERE v.id = NEW.id;
  END;
  CREATE TRIGGER broadcasts_event_inserted AFTER INSERT ON broadcasts
    WHEN NEW.status IN ('sending', 'paused', 'finished', 'cancelled') BEGIN
    INSERT INTO events (id, type, at, data)
    SELECT 'evt_' || lower(hex(randomblob(16))), CASE NEW.status WHEN 'sending' THEN 'broadcast.started' ELSE 'broadcast.' || NEW.status END,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), json_object('broadcast', json(v.broadcast))
    FROM event_broadcasts v WHERE v.id = NEW.id;
  END`,
  // 15. The archive index (src/modules/retention/archive.ts, issue 40): for each R2 archive object, who has mail in it, as
  // 'c:<contact id>' and 'a:<address digest>' (src/modules/privacy/address-digest.ts), written in the transaction that
  // moves the messages out, so an erasure or an export opens only the objects that hold the person's messages.
  `CREATE TABLE archive_holders (
    holder TEXT NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (holder, key)
  ) WITHOUT ROWID`,
  // 16. An endpoint that stopped answering (src/modules/webhook/ledger-side.ts): no flight before `down_until`, then one
  // flight at a time (a probe) until it answers; `down_tries` counts the probes that found it still down.
  `ALTER TABLE webhook_endpoints ADD COLUMN down_until INTEGER;
   ALTER TABLE webhook_endpoints ADD COLUMN down_tries INTEGER DEFAULT 0 NOT NULL`,
];

/** Applies the steps `sql` has not applied yet, in one transaction; answers the schema version it is at. */
export function migrateLedger(storage: DurableObjectStorage): number {
  return storage.transactionSync(() => {
    const sql = storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS ledger_schema (version INTEGER NOT NULL)');
    const row = sql.exec<{ version: number }>('SELECT version FROM ledger_schema').toArray()[0];
    const from = row ? Number(row.version) : 0;
    for (let step = from; step < LEDGER_STEPS.length; step++) sql.exec(LEDGER_STEPS[step]);
    if (!row) sql.exec('INSERT INTO ledger_schema (version) VALUES (?)', LEDGER_STEPS.length);
    else if (from < LEDGER_STEPS.length) sql.exec('UPDATE ledger_schema SET version = ?', LEDGER_STEPS.length);
    return LEDGER_STEPS.length;
  });
}

/** Message ids continue above `first` (never below an id already handed out). */
export function startIdsAt(sql: SqlStorage, first: number): void {
  const row = sql.exec<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").toArray()[0];
  if (!row) sql.exec("INSERT INTO sqlite_sequence (name, seq) VALUES ('messages', ?)", first);
  else if (Number(row.seq) < first) sql.exec("UPDATE sqlite_sequence SET seq = ? WHERE name = 'messages'", first);
}
