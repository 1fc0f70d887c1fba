// D1 metering for bench:broadcast: counts the statements the worker sends to D1 and the rows D1 says they read
// and wrote (its result meta). Off unless the benchmark switches it on through the DevTools inspector by setting
// globalThis.__relayD1Meter to { statements: 0, rowsRead: 0, rowsWritten: 0 }; it then reads the same object back.
// A deployed worker never has it, and createDb hands out the plain binding.

export interface D1Meter {
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  /** Rows written by statement (its first 80 characters), when the benchmark asks for them (`writers: {}`). */
  writers?: Record<string, number>;
  /** Rows read by statement (its first 120 characters), when the benchmark asks for them (`readers: {}`). */
  readers?: Record<string, number>;
  /** Statements run, by statement (its first 120 characters), when the benchmark asks for them (`runs: {}`). */
  runs?: Record<string, number>;
}

/** The meter the benchmark set, if any. */
export function activeMeter(): D1Meter | null {
  const meter = (globalThis as { __relayD1Meter?: D1Meter }).__relayD1Meter;
  return meter && typeof meter === 'object' ? meter : null;
}

function record(meter: D1Meter, result: D1Result | D1Response | undefined, query?: string): void {
  meter.statements += 1;
  const read = Number(result?.meta?.rows_read ?? 0);
  const written = Number(result?.meta?.rows_written ?? 0);
  meter.rowsRead += read;
  meter.rowsWritten += written;
  tally(meter.writers, query, written, 80);
  tally(meter.readers, query, read, 120);
  tally(meter.runs, query, 1, 120);
}

/** Adds `rows` to the statement's entry (its first `length` characters) when the benchmark asked for the table. */
function tally(table: Record<string, number> | undefined, query: string | undefined, rows: number, length: number): void {
  if (!table || !query || rows <= 0) return;
  const key = query.replace(/\s+/g, ' ').trim().slice(0, length);
  table[key] = (table[key] ?? 0) + rows;
}

const RAW = Symbol('unmetered statement');
const QUERY = Symbol('its SQL');
type MeteredStatement = D1PreparedStatement & { [RAW]: D1PreparedStatement; [QUERY]: string };

function meterStatement(meter: D1Meter, statement: D1PreparedStatement, query: string): D1PreparedStatement {
  const metered = {
    [RAW]: statement,
    [QUERY]: query,
    bind: (...values: unknown[]) => meterStatement(meter, statement.bind(...values), query),
    async run() {
      const result = await statement.run();
      record(meter, result, query);
      return result;
    },
    async all() {
      const result = await statement.all();
      record(meter, result, query);
      return result;
    },
    async first(column?: string) {
      const result = await statement.all<Record<string, unknown>>();
      record(meter, result, query);
      const row = result.results[0] ?? null;
      return column === undefined ? row : row ? row[column] : null;
    },
    // raw() answers no meta: metered, it runs as all() and gives the rows as arrays, as drizzle's own batch does.
    async raw(options?: { columnNames?: boolean }) {
      const result = await statement.all<Record<string, unknown>>();
      record(meter, result, query);
      const rows = result.results.map((row) => Object.values(row));
      return options?.columnNames ? [Object.keys(result.results[0] ?? {}), ...rows] : rows;
    },
  };
  return metered as unknown as D1PreparedStatement;
}

/** The binding as is, or, while a benchmark meters, a binding that counts every statement. */
export function meteredD1(d1: D1Database): D1Database {
  const meter = activeMeter();
  if (!meter) return d1;
  return new Proxy(d1, {
    get(target, key) {
      if (key === 'prepare') return (query: string) => meterStatement(meter, target.prepare(query), query);
      if (key === 'batch') {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements.map((s) => (s as MeteredStatement)[RAW] ?? s));
          for (const [i, result] of results.entries()) record(meter, result, (statements[i] as MeteredStatement)[QUERY]);
          return results;
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
