// bench:import — imports a generated CSV of N contacts (default 1,000,000, about 100 MB: two address types,
// five custom fields, tags, a quoted note) through the local platform: wrangler dev, upload to R2, the queue
// consumer writing D1. Reports rows per second and the memory of the workerd process, then the same rows
// inserted into SQLite directly with better-sqlite3 as the baseline. Run: npm run bench:import [N=...]
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { CsvScanner } from '../../src/shared/csv-scanner.ts';
import { benchFieldsSql, benchMapping, writeContactsCsv } from './support/contacts-csv.mjs';
import { closeHttp, runImport, signIn, uploadFile } from './support/http.mjs';
import { connectInspector, sampleHeap } from './support/inspector.mjs';
import { findWorkerdPids, mb, memoryOf, sampleMemory } from './support/memory.mjs';
import { d1Execute, startBenchPlatform } from './support/platform.mjs';
import { createSchemaDb, insertContactsDirectly } from './support/sqlite-baseline.mjs';

const N = Number(process.env.N) || 1_000_000;
const rate = (rows, seconds) => Math.round(rows / seconds);

/** Parses the file with the import's own streaming parser (64 KB pieces, as the consumer feeds it) and with papaparse (a common streaming parser, for scale). */
async function measureParsers(file, size) {
  let started = performance.now();
  const scanner = new CsvScanner();
  let rows = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) rows += scanner.push(chunk).length;
  rows += scanner.finish().length;
  const ours = (performance.now() - started) / 1000;
  started = performance.now();
  let papaRows = 0;
  await new Promise((resolve, reject) => Papa.parse(createReadStream(file), { step: () => papaRows++, complete: resolve, error: reject }));
  const papa = (performance.now() - started) / 1000;
  console.log(
    `parser (Node, same file): import CsvScanner ${rows} records in ${ours.toFixed(2)} s (${(size / 1e6 / ours).toFixed(0)} MB/s); papaparse streaming ${papaRows} in ${papa.toFixed(2)} s (${(size / 1e6 / papa).toFixed(0)} MB/s)`,
  );
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'bench-import-data-'));
  const file = path.join(work, 'contacts.csv');
  let platform = null;
  try {
    const size = await writeContactsCsv(file, N);
    console.log(`file: ${N} contacts, ${(size / 1e6).toFixed(1)} MB (${file})`);
    await measureParsers(file, size);

    platform = await startBenchPlatform('import');
    const { port, host } = platform;
    await d1Execute(platform, benchFieldsSql('acme'));
    const fieldRows = await d1Execute(platform, "SELECT f.id, f.alias FROM fields f JOIN organizations o ON o.id = f.org_id WHERE o.domain = 'acme'");
    const fieldIds = Object.fromEntries(fieldRows.map((r) => [r.alias, r.id]));
    const token = await signIn(port, host);

    const pids = findWorkerdPids(platform.child.pid);
    if (pids.length === 0) throw new Error('no workerd process found under wrangler');
    const idleKb = pids.reduce((s, p) => s + memoryOf(p).rssKb, 0);

    let sampler = sampleMemory(pids);
    const started = performance.now();
    const upload = await uploadFile(port, host, token, file);
    const uploadSeconds = (performance.now() - started) / 1000;
    const uploadMem = sampler.stop();
    console.log(
      `upload: ${(size / 1e6).toFixed(1)} MB streamed into R2 in ${uploadSeconds.toFixed(1)} s; workerd peak RSS during upload ${mb(uploadMem.peakRssKb)} MB`,
    );

    const inspector = await connectInspector(platform.inspectorPort);
    const heapSampler = sampleHeap(inspector);
    sampler = sampleMemory(pids);
    let lastLog = 0;
    const { item, seconds } = await runImport(
      port,
      host,
      token,
      { file_key: upload.file_key, file_name: 'contacts.csv', skip_first_line: true, mapping: benchMapping(fieldIds) },
      {
        onPoll: (it) => {
          if (performance.now() - lastLog > 10_000) {
            lastLog = performance.now();
            console.log(`  ... ${it.status}: ${it.processed_rows} rows, ${(it.processed_bytes / 1e6).toFixed(1)} MB`);
          }
        },
      },
    );
    const importMem = sampler.stop();
    const heap = await heapSampler.stop();
    inspector.close();
    const hwmKb = pids.reduce((s, p) => s + memoryOf(p).hwmKb, 0);
    const rows = item.created_count + item.updated_count + item.rejected_count;
    if (item.status !== 'success' || item.created_count !== N) {
      throw new Error(`import ended ${item.status}: ${JSON.stringify(item)}`);
    }
    const [{ n: stored }] = await d1Execute(platform, "SELECT COUNT(*) AS n FROM contacts c JOIN organizations o ON o.id = c.org_id WHERE o.domain = 'acme'");
    console.log(
      `import: ${rows} rows (${item.created_count} created, ${item.updated_count} updated, ${item.rejected_count} rejected; ${stored} contacts stored) in ${seconds.toFixed(1)} s from POST /import to status success`,
    );
    console.log(
      `memory (process): RSS of the workerd process wrangler dev runs, sampled every 100 ms from /proc/<pid>/status. It holds the worker isolate AND miniflare's simulated D1 (SQLite page cache), R2 and queues, so it bounds the consumer from above:`,
    );
    console.log(
      `  idle ${mb(idleKb)} MB; peak VmRSS during the import ${mb(importMem.peakRssKb)} MB (${importMem.samples} samples), i.e. +${mb(importMem.peakRssKb - idleKb)} MB; VmHWM over the whole run (incl. the upload) ${mb(hwmKb)} MB`,
    );
    const heapMb = heap.peakTotal / 1024 / 1024;
    const m = (bytes) => (bytes / 1024 / 1024).toFixed(1);
    console.log(
      `memory (isolate): V8 heap of the worker isolate running the consumer (DevTools Runtime.getHeapUsage, ${heap.samples} samples): peak used ${m(heap.peakUsed)} MB, peak heap size ${heapMb.toFixed(1)} MB (V8 collects lazily: these include garbage); live after a forced GC every 2 s (${heap.liveSamples} samples): peak ${m(heap.peakLive)} MB`,
    );
    console.log(`  target under 128 MB per isolate: ${heapMb < 128 ? 'met' : 'NOT met'}`);
    await platform.stop();
    platform = null;

    const db = createSchemaDb(path.join(work, 'baseline.sqlite'));
    const baseSeconds = insertContactsDirectly(db, N);
    db.close();
    console.log(
      `baseline: the same ${N} contacts (contact, addresses, 6 field values, 2 tags each) inserted with better-sqlite3 prepared statements, 1000 per transaction, in ${baseSeconds.toFixed(1)} s`,
    );

    const ours = rate(rows, seconds);
    const base = rate(N, baseSeconds);
    console.log(`target 10000 rows/s: ${ours >= 10_000 ? 'met' : 'NOT met'}`);
    console.log(`import: ${ours} rows/s | better-sqlite3: ${base} rows/s | ratio ${(ours / base).toFixed(2)}`);
  } finally {
    closeHttp();
    if (platform) await platform.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
