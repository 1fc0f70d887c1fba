// bench:erase's data set, as a plan: who got which message when, for one organisation and one stretch of time (the
// archived year, or the ledger's retention window). Typed arrays, sorted by time, so a million messages take a few MB
// and the rows and archive chunks are made from them one chunk at a time (rows.mjs, chunks.mjs).
//
// The mix (printed by the bench): broadcasts go to a segment of the organisation's contacts, sent at 10 a second; the
// people the bench follows ("persons": the contact to erase, a smaller one, the same person in another organisation)
// get one message of every broadcast, at a random place in its send. The rest is transactional (the send API): other
// contacts' messages at random times over the stretch; a person's come in bursts (one to 150 within an hour: an
// account's notifications while it is busy) and a few single messages scattered over the stretch (receipts,
// password resets). A fifth of a person's transactional messages name no contact (the send API to a bare address,
// which it keeps lower-cased, as contact_addresses does).

const HOUR = 3_600_000;
const BROADCAST_GAP_MS = 100;
/** A person's transactional messages that come alone, scattered over the stretch. */
export const SINGLE_SHARE = 0.025;
const BURST_MIN = 50;
const BURST_MAX = 150;
/** A person's transactional messages sent to the bare address (no contact). */
const BARE_SHARE = 0.2;
/** Other contacts' transactional messages sent to the bare address. */
const OTHERS_BARE_SHARE = 0.1;

/** A small deterministic generator (mulberry32): the same plan for the same seed. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** How a person's `count` messages in a stretch with `broadcasts` broadcasts split: broadcast, bursts, singles. */
function personMix(count, broadcasts, next) {
  const transactional = count - broadcasts;
  if (transactional < 0) throw new Error(`a person with ${count} messages cannot get all ${broadcasts} broadcasts`);
  const singles = Math.round(transactional * SINGLE_SHARE);
  const bursts = [];
  let left = transactional - singles;
  while (left > 0) {
    const size = Math.min(left, BURST_MIN + Math.floor(next() * (BURST_MAX - BURST_MIN + 1)));
    bursts.push(size);
    left -= size;
  }
  return { broadcasts, transactional, singles, bursts };
}

/**
 * The messages of one organisation from `from` to `to` (ms): `total` of them, `broadcastShare` of those in
 * `broadcasts` broadcasts to segments of the `pool` contacts; `persons` (each { messages }) get theirs as above.
 * Answers { n, time, recipient (pool index >= 0, or -1 - person index), broadcast (-1: transactional), bare (1: to
 * the bare address, no contact), mixes (per person) }, sorted by time.
 */
export function planMessages({ from, to, total, broadcasts, broadcastShare, pool, persons, seed }) {
  const next = random(seed);
  const time = new Float64Array(total);
  const recipient = new Int32Array(total);
  const broadcast = new Int16Array(total).fill(-1);
  const bare = new Uint8Array(total);
  let at = 0;
  const add = (t, who, b, how) => {
    if (at >= total) throw new Error('the plan holds more messages than its total');
    time[at] = t;
    recipient[at] = who;
    broadcast[at] = b;
    bare[at] = how;
    at += 1;
  };
  const span = to - from;
  const broadcastTotal = Math.round(total * broadcastShare);
  const size = Math.floor(broadcastTotal / broadcasts);
  if (size > pool) throw new Error(`a broadcast of ${size} is larger than the ${pool} contacts`);
  for (let b = 0; b < broadcasts; b++) {
    const start = from + ((b + 0.5) * span) / broadcasts;
    const count = b === broadcasts - 1 ? broadcastTotal - size * (broadcasts - 1) : size;
    const personAt = new Map();
    while (personAt.size < persons.length) {
      const slot = Math.floor(next() * count);
      if (![...personAt.values()].includes(slot)) personAt.set(personAt.size, slot);
    }
    const bySlot = new Map([...personAt].map(([p, slot]) => [slot, p]));
    let member = Math.floor(next() * pool);
    for (let slot = 0; slot < count; slot++) {
      const person = bySlot.get(slot);
      add(start + slot * BROADCAST_GAP_MS, person === undefined ? member++ % pool : -1 - person, b, 0);
    }
  }
  const mixes = persons.map((person, p) => {
    const mix = personMix(person.messages, broadcasts, next);
    const how = () => (next() < BARE_SHARE ? 1 : 0);
    for (const burst of mix.bursts) {
      const start = from + next() * (span - HOUR);
      for (let i = 0; i < burst; i++) add(start + next() * HOUR, -1 - p, -1, how());
    }
    for (let i = 0; i < mix.singles; i++) add(from + next() * span, -1 - p, -1, how());
    return mix;
  });
  while (at < total) add(from + next() * span, Math.floor(next() * pool), -1, next() < OTHERS_BARE_SHARE ? 1 : 0);
  return { n: total, mixes, ...sortedByTime({ time, recipient, broadcast, bare }) };
}

/** The arrays reordered by time. */
function sortedByTime(columns) {
  const order = new Uint32Array(columns.time.length).map((_, i) => i);
  order.sort((a, b) => columns.time[a] - columns.time[b]);
  return Object.fromEntries(
    Object.entries(columns).map(([name, values]) => {
      const sorted = new values.constructor(values.length);
      for (let i = 0; i < order.length; i++) sorted[i] = values[order[i]];
      return [name, sorted];
    }),
  );
}

/** The plan's messages of person `p` (indexes in time order). */
export function messagesOf(plan, p) {
  const found = [];
  for (let i = 0; i < plan.n; i++) if (plan.recipient[i] === -1 - p) found.push(i);
  return found;
}

/** A person's mix as one line: "1,000 messages: 12 broadcast, 958 transactional in 9 bursts (50-150 within an hour), 30 single". */
export function describeMix(mix) {
  const burstMessages = mix.bursts.reduce((s, n) => s + n, 0);
  const count = mix.broadcasts + mix.transactional;
  return `${count.toLocaleString('en')} messages: ${mix.broadcasts} broadcast (one of each), ${burstMessages.toLocaleString('en')} transactional in ${mix.bursts.length} bursts (${BURST_MIN}-${BURST_MAX} within an hour), ${mix.singles} single ones scattered`;
}
