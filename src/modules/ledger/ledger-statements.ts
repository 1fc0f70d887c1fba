// The ledger's side of ledger-db.ts: statements the worker built with drizzle (for D1's tables, which the ledger has
// under the same names: ledger-schema.ts) run on the ledger's SQLite, a call's statements in one transaction, with
// answers in D1's shapes (rows under `results`, `meta.changes`), so the worker's code reads them as it reads D1's.

/** One statement as the worker sends it: `raw` answers rows as arrays (drizzle's joins), `all` and `run` as objects. */
export interface LedgerStatement {
  sql: string;
  params: unknown[];
  mode: 'all' | 'raw' | 'run';
}

export interface LedgerResult {
  results: unknown[];
  columns?: string[];
  meta: { changes: number; last_row_id: number; rows_read: number; rows_written: number; duration: number };
}

/** A value as SQLite binds it: booleans as 0/1, undefined as null (D1 does the same). */
const bindable = (value: unknown) => (value === undefined ? null : typeof value === 'boolean' ? (value ? 1 : 0) : value);

/** Runs the statements in order, in one transaction: all or nothing, as a D1 batch. */
export function runStatements(storage: DurableObjectStorage, statements: LedgerStatement[]): LedgerResult[] {
  return storage.transactionSync(() => statements.map((s) => runOne(storage.sql, s)));
}

function runOne(sql: SqlStorage, statement: LedgerStatement): LedgerResult {
  const started = Date.now();
  const cursor = sql.exec(statement.sql, ...statement.params.map(bindable));
  let results: unknown[];
  let columns: string[] | undefined;
  if (statement.mode === 'raw') {
    results = [...cursor.raw()];
    columns = cursor.columnNames;
  } else {
    results = cursor.toArray();
  }
  const written = cursor.rowsWritten;
  const after = written > 0 ? sql.exec<{ c: number; r: number }>('SELECT changes() AS c, last_insert_rowid() AS r').one() : { c: 0, r: 0 };
  return {
    results,
    columns,
    meta: {
      changes: Number(after.c),
      last_row_id: Number(after.r),
      rows_read: cursor.rowsRead,
      rows_written: written,
      duration: Date.now() - started,
    },
  };
}
