import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { EVENT_VERSION, type StreamEvent } from '../../shared/contracts/events';
import { served } from '../ledger/owner';
import { allLedgers } from '../ledger/registry';
import { encodeCursor, type StreamCursor } from './cursor';
import type { StoredEvent } from './stream';

// GET /api/v1/events: the organisation's events, oldest first, from every ledger generation it has (usually one).
// D1's outbox is absorbed first, so a page shows every change made before the call. Each ledger is read after its
// own last seq (the cursor); the pages are merged by time, so each ledger's events keep their order and the cursor
// moves past exactly what the page shows.

export interface EventsPage {
  data: StreamEvent[];
  next_cursor: string;
  has_more: boolean;
}

export async function pullEvents(env: Env, db: Database, orgId: number, cursor: StreamCursor, types: string[] | null, limit: number): Promise<EventsPage> {
  const ledgers = await allLedgers(env, db, orgId);
  const first = ledgers.find((l) => l.owner.generation === 0);
  if (first) served(await first.stub.absorbEvents(first.owner));
  const pages = await Promise.all(
    ledgers.map(async (l) => ({
      generation: l.owner.generation,
      rows: served(await l.stub.readEvents(l.owner, cursor[l.owner.generation] ?? 0, types, limit + 1)),
    })),
  );
  const next: StreamCursor = { ...cursor };
  const taken: StoredEvent[] = [];
  const heads = pages.map(() => 0);
  while (taken.length < limit) {
    let pick = -1;
    pages.forEach((page, i) => {
      const head = page.rows[heads[i]];
      if (head && (pick < 0 || head.at < pages[pick].rows[heads[pick]].at)) pick = i;
    });
    if (pick < 0) break;
    const row = pages[pick].rows[heads[pick]++];
    next[pages[pick].generation] = row.seq;
    taken.push(row);
  }
  return {
    data: taken.map((row) => ({ id: row.id, type: row.type as StreamEvent['type'], version: EVENT_VERSION, timestamp: row.at, data: JSON.parse(row.data) })),
    next_cursor: encodeCursor(next),
    has_more: pages.some((page, i) => heads[i] < page.rows.length),
  };
}
