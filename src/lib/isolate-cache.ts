// A small map kept in the isolate's memory between requests, each entry for `ttlMs`: for rows read on every request
// that change rarely (an organisation by its host, an API key by its hash), so a request does not pay a D1 round trip
// for them. Each isolate has its own: a change is seen at once by the isolate that made it (it forgets the entry) and
// within ttlMs by the others, so a cached value must be one whose short staleness the product can say and accept.

export class IsolateCache<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  get(key: K, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V, now = Date.now()): void {
    // Full: the oldest entry goes (a Map iterates in insertion order).
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  /** Forgets the entries `match` picks, or all. */
  forget(match?: (key: K, value: V) => boolean): void {
    if (!match) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) if (match(key, entry.value)) this.entries.delete(key);
  }
}
