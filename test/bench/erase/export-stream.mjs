// One contact's export (GET /contact/{id}/export) read as a stream by the bench, while the worker isolate's heap is
// sampled through wrangler dev's inspector (support/inspector.mjs: the used heap every 100 ms, and the live heap right
// after a forced collection every 500 ms) and the workerd processes' RSS beside it (support/memory.mjs). Besides the
// timer, the download stops every SAMPLE_BYTES it has read, has the isolate collect and measured, and goes on: the
// export is a pull stream, so this is its live heap in the middle of the work, however short the export.
// A streamed export holds a page at a time: its live heap stays where it is whatever the contact's number of messages.
import http from 'node:http';
import { sampleHeap } from '../support/inspector.mjs';
import { memoryOf, sampleMemory } from '../support/memory.mjs';

const SAMPLE_BYTES = 256 * 1024;

async function liveHeap(inspector) {
  await inspector.call('HeapProfiler.collectGarbage');
  return (await inspector.call('Runtime.getHeapUsage')).usedSize;
}

/**
 * GET `path` read chunk by chunk, pausing every SAMPLE_BYTES for `whilePaused()`: { status, ttfbMs, ms (without
 * the pauses), bytes, chunks, body }.
 */
function download(port, host, token, path, whilePaused) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let pausedMs = 0;
    const req = http.request({ host: '127.0.0.1', port, path, headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      let ttfbMs = null;
      let bytes = 0;
      let nextSample = SAMPLE_BYTES;
      const parts = [];
      res.on('data', (chunk) => {
        ttfbMs ??= performance.now() - started;
        bytes += chunk.length;
        parts.push(chunk);
        if (bytes < nextSample) return;
        nextSample = bytes + SAMPLE_BYTES;
        res.pause();
        const pausedAt = performance.now();
        whilePaused()
          .catch(() => {})
          .finally(() => {
            pausedMs += performance.now() - pausedAt;
            res.resume();
          });
      });
      res.on('end', () =>
        resolve({ status: res.statusCode, ttfbMs, ms: performance.now() - started - pausedMs, bytes, chunks: parts.length, body: Buffer.concat(parts) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Exports the contact as JSON; answers the download's figures, the messages it holds (ledger and archived), the
 * live heap before and its peak during, the peak used heap (garbage included) and the workerd RSS before and at
 * its peak.
 */
export async function measureExport({ platform, token, contactId, inspector, workerdPids }) {
  const idleHeap = await liveHeap(inspector);
  const rssBeforeKb = workerdPids.reduce((s, pid) => s + memoryOf(pid).rssKb, 0);
  const heap = sampleHeap(inspector, 100, 500);
  const rss = sampleMemory(workerdPids, 100);
  let peakMidway = 0;
  let midwaySamples = 0;
  const got = await download(platform.port, platform.host, token, `/api/v1/contact/${contactId}/export?format=json`, async () => {
    peakMidway = Math.max(peakMidway, await liveHeap(inspector));
    midwaySamples++;
  });
  const heapPeaks = await heap.stop();
  const { peakRssKb } = rss.stop();
  if (got.status !== 200) throw new Error(`GET /contact/${contactId}/export: ${got.status} ${got.body.toString('utf8').slice(0, 300)}`);
  const doc = JSON.parse(got.body.toString('utf8'));
  return {
    ...got,
    body: undefined,
    messages: doc.messages.length,
    archived: doc.archived_messages.length,
    idleHeap,
    peakLive: Math.max(heapPeaks.peakLive, peakMidway, idleHeap),
    liveSamples: heapPeaks.liveSamples + midwaySamples,
    peakUsed: heapPeaks.peakUsed,
    rssBeforeKb,
    peakRssKb,
  };
}
