import { drizzle } from 'drizzle-orm/d1';
import type { Database } from '../../db/client';
import { served } from './owner';
import type { LedgerHandle } from './registry';
import { runStatements, type LedgerResult, type LedgerStatement } from './ledger-statements';

// A drizzle client on an organisation's ledger: the ledger's tables have D1's names and columns (ledger-schema.ts), so
// the queries written for D1 run on it unchanged. It poses as a D1 binding: each statement (or batch, one
// transaction) is one call to the ledger (ledger-statements.ts), which checks the owner like every other call.

type Call = (statements: LedgerStatement[]) => Promise<LedgerResult[]>;

class LedgerStatementProxy {
  constructor(
    private call: Call,
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}

  bind(...params: unknown[]) {
    return new LedgerStatementProxy(this.call, this.sql, params);
  }

  statement(mode: LedgerStatement['mode']): LedgerStatement {
    return { sql: this.sql, params: this.params, mode };
  }

  async all() {
    const [result] = await this.call([this.statement('all')]);
    return { success: true, ...result };
  }

  async run() {
    return this.all();
  }

  async first(column?: string) {
    const [result] = await this.call([this.statement('all')]);
    const row = (result.results[0] ?? null) as Record<string, unknown> | null;
    return column === undefined ? row : row ? row[column] : null;
  }

  async raw(options?: { columnNames?: boolean }) {
    const [result] = await this.call([this.statement('raw')]);
    return options?.columnNames ? [result.columns ?? [], ...result.results] : result.results;
  }
}

class LedgerBinding {
  constructor(private call: Call) {}

  prepare(query: string) {
    return new LedgerStatementProxy(this.call, query);
  }

  async batch(statements: LedgerStatementProxy[]) {
    const results = await this.call(statements.map((s) => s.statement('all')));
    return results.map((r) => ({ success: true, ...r }));
  }

  async exec(query: string) {
    await this.call([{ sql: query, params: [], mode: 'run' }]);
    return { count: 1, duration: 0 };
  }
}

/** The ledger `handle` names as a D1 binding (prepare, bind, batch): what ledgerDb builds on; tests read with it. */
export function ledgerBinding(handle: LedgerHandle): D1Database {
  const call: Call = async (statements) => served(await handle.stub.run(handle.owner, statements));
  return new LedgerBinding(call) as unknown as D1Database;
}

/** A drizzle client whose statements run on the ledger `handle` names. */
export function ledgerDb(handle: LedgerHandle): Database {
  return drizzle(ledgerBinding(handle)); // no schema: see createDb
}

/** The ledger's own client on its storage (inside the Durable Object: no call, same transactions). */
export function localLedgerDb(storage: DurableObjectStorage): Database {
  const call: Call = async (statements) => runStatements(storage, statements);
  return drizzle(new LedgerBinding(call) as unknown as D1Database);
}
