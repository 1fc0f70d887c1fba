// Memory of the local platform: the RSS of the workerd process(es) that wrangler dev starts, sampled from
// /proc/<pid>/status. workerd hosts the worker isolate AND miniflare's simulated D1, R2 and Queues, so its RSS
// is an upper bound of what the import consumer itself uses (Cloudflare's 128 MB limit is per isolate).
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of the `workerd` processes among the descendants of `rootPid`. */
export function findWorkerdPids(rootPid) {
  const children = new Map();
  const names = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      names.set(Number(entry), name);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  const found = [];
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.shift();
    for (const child of children.get(pid) ?? []) {
      if (names.get(child) === 'workerd') found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** VmRSS and VmHWM of a process, in kB (0 when it is gone). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
  } catch {
    return { rssKb: 0, hwmKb: 0 };
  }
}

/** Samples the summed RSS of `pids` every `intervalMs` until stop(); stop() returns { peakRssKb, samples }. */
export function sampleMemory(pids, intervalMs = 100) {
  let peakRssKb = 0;
  let samples = 0;
  const take = () => {
    const rss = pids.reduce((sum, pid) => sum + memoryOf(pid).rssKb, 0);
    peakRssKb = Math.max(peakRssKb, rss);
    samples++;
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peakRssKb, samples };
    },
  };
}

export const mb = (kb) => (kb / 1024).toFixed(1);
