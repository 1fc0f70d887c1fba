// The archive chunks a plan's messages make, cut as src/modules/retention/archive.ts cuts them: the oldest
// ARCHIVE_CHUNK settled messages at a time (created_at, id), each window split by month, each month's part one R2
// object `orgs/{org}/archive/messages/{YYYY-MM}/{first id}-{last id}.ndjson.gz`. This is the cut of one run through a
// backlog (the cron catching up on a year, 40 chunks a run); at steady state each 15-minute run would archive only what
// crossed the retention line since the last one, so a trickle of transactional mail would make smaller objects.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../../scripts/lib/run.mjs';

/** ARCHIVE_CHUNK of archive.ts, read from its source (the module itself needs the Workers runtime). */
export function archiveChunkSize() {
  const source = readFileSync(path.join(ROOT, 'src', 'modules', 'retention', 'archive.ts'), 'utf8');
  const size = Number(/export const ARCHIVE_CHUNK = (\d+);/.exec(source)?.[1]);
  if (!size) throw new Error('ARCHIVE_CHUNK not found in src/modules/retention/archive.ts');
  return size;
}

export const isoAt = (ms) => new Date(ms).toISOString();

/** The chunks of a plan whose message i has id firstId + i: [{ month, from, to }] (plan indexes, `to` exclusive). */
export function chunksOf(plan, chunkSize) {
  const chunks = [];
  for (let window = 0; window < plan.n; window += chunkSize) {
    const end = Math.min(plan.n, window + chunkSize);
    let from = window;
    let month = isoAt(plan.time[from]).slice(0, 7);
    for (let i = window + 1; i <= end; i++) {
      const m = i < end ? isoAt(plan.time[i]).slice(0, 7) : null;
      if (m === month) continue;
      chunks.push({ month, from, to: i });
      from = i;
      month = m;
    }
  }
  return chunks;
}
