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
