// The figures of bench:transactional, from what the clients timed and what the sink recorded: plain functions of
// the calls (one per POST /send: when it started and was answered, its status and the worker's own time) and the
// sink's records ([accepted at, X-Bench-Id or null], a broadcast's messages having none). Times are epoch ms.
import { percentile } from '../support/stats.mjs';

/** The goals of issue 36 and how each is judged. */
export const GOALS = {
  acceptedPerSecond: 250,
  drainMs: 5_000,
  p95IdleMs: 1_500,
  p95BusyMs: 3_000,
  broadcastKept: 0.7,
  d1RowsPerSend: 1,
};

export const verdict = (met) => (met ? 'met' : 'NOT met');

const min = (values) => values.reduce((a, b) => Math.min(a, b), Infinity);
const max = (values) => values.reduce((a, b) => Math.max(a, b), -Infinity);

/** The first time the sink accepted each of a phase's calls (by its id), and the ids it accepted more than once. */
export function deliveries(records, label) {
  const at = new Map();
  const twice = new Set();
  for (const [when, id] of records) {
    if (id === null || !id.startsWith(`${label}-`)) continue;
    if (at.has(id)) twice.add(id);
    else at.set(id, when);
  }
  return { at, twice };
}

/**
 * One phase of sends: accepted requests per second (202s over the phase's wall time, first call started to last
 * answered), the latency from just before each call to the sink's acceptance of its message (p50, p95), the drain
 * (last accepted by the sink minus last 202), the client's and the worker's time per call, and what went wrong.
 */
export function phaseFigures(calls, delivered) {
  const accepted = calls.filter((c) => c.status === 202);
  const wallMs = max(calls.map((c) => c.answered)) - min(calls.map((c) => c.started));
  const reached = accepted.filter((c) => delivered.at.has(c.id));
  const latencies = reached.map((c) => delivered.at.get(c.id) - c.started);
  const lastAccept = max(accepted.map((c) => c.answered));
  const lastDelivered = max(reached.map((c) => delivered.at.get(c.id)));
  const statuses = {};
  for (const c of calls) statuses[c.status] = (statuses[c.status] ?? 0) + 1;
  const acceptedIds = new Set(accepted.map((c) => c.id));
  const workerTimes = calls.filter((c) => c.workerMs !== null).map((c) => c.workerMs);
  const answerTimes = calls.map((c) => c.answered - c.started);
  return {
    calls: calls.length,
    accepted: accepted.length,
    statuses,
    errors: [...new Set(calls.filter((c) => c.status !== 202).map((c) => `${c.status} ${JSON.stringify(c.error).slice(0, 300)}`))],
    perSecond: accepted.length / (wallMs / 1000),
    wallMs,
    firstStart: min(calls.map((c) => c.started)),
    lastAccept,
    lastDelivered,
    drainMs: reached.length ? Math.max(0, lastDelivered - lastAccept) : Infinity,
    p50: percentile(latencies, 50),
    p95: reached.length === accepted.length ? percentile(latencies, 95) : Infinity,
    answerP50: percentile(answerTimes, 50),
    answerP95: percentile(answerTimes, 95),
    workerP50: percentile(workerTimes, 50),
    workerP95: percentile(workerTimes, 95),
    withoutTiming: calls.length - workerTimes.length,
    lost: accepted.length - reached.length,
    twice: delivered.twice.size,
    // Delivered although the call was not answered 202 (a 5xx whose message went out anyway).
    unanswered: [...delivered.at.keys()].filter((id) => !acceptedIds.has(id)).length,
  };
}

/**
 * The broadcast's rate beside the sends against its rate alone, both at the sink and from the same broadcast. Beside:
 * its messages accepted while the sends were in the system (first call started to last send accepted by the sink),
 * over that window. Alone: its messages in the rest of the run over the rest's time, leaving out the first and the
 * last 5 % of its messages (the runner still paging its first recipients, the last batches trickling in), which the
 * window beside the sends never contains either; the sends start once a fifth of it is out, so the alone rate is
 * the same broadcast's steady state just before and just after, at the same size of ledger and queue.
 */
export function broadcastKept(times, window) {
  const sorted = [...times].sort((a, b) => a - b);
  if (sorted.length < 20) return null;
  const from = sorted[Math.floor(sorted.length * 0.05)];
  const to = sorted[Math.ceil(sorted.length * 0.95) - 1];
  const count = (a, b) => sorted.filter((t) => t >= a && t < b).length;
  const span = (a, b) => Math.max(0, b - a);
  const beside = { count: count(window.start, window.end), ms: span(Math.max(window.start, sorted[0]), Math.min(window.end, sorted.at(-1))) };
  const before = { count: count(from, Math.min(window.start, to)), ms: span(from, Math.min(window.start, to)) };
  const after = { count: count(Math.max(window.end, from), to), ms: span(Math.max(window.end, from), to) };
  const aloneMs = before.ms + after.ms;
  const besideRate = beside.ms > 0 ? (beside.count * 1000) / beside.ms : 0;
  const aloneRate = aloneMs > 0 ? ((before.count + after.count) * 1000) / aloneMs : 0;
  return {
    besideRate,
    aloneRate,
    kept: aloneRate > 0 ? besideRate / aloneRate : 0,
    beforeMs: before.ms,
    afterMs: after.ms,
    // The broadcast ended while the sends were still going: the window beside them is partly the sends alone.
    endedInside: sorted.at(-1) < window.end,
    overallRate: (sorted.length * 1000) / span(sorted[0], sorted.at(-1)),
  };
}
