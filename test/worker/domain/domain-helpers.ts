// Sending-domain API tests: a stand-in DoH resolver the worker's checks reach (the global fetch, stubbed for the
// resolver's URL only), and zone entries made from a domain row's own records.
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { DEFAULT_DOH_RESOLVER } from '../../../src/lib/dns/doh';
import type { DomainRow } from '../../../src/shared/contracts/domain';
import { type FakeAnswer, fakeDoh, ok, txt } from './fake-doh';

/** A zone the worker's checks read; change it between calls. Stubbed on the default resolver's URL. */
export function stubResolver(): Record<string, FakeAnswer> {
  const zone: Record<string, FakeAnswer> = {};
  const dns = fakeDoh(zone);
  const fake = dns.options().fetch!;
  const real = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
    String(input instanceof Request ? input.url : input).startsWith(DEFAULT_DOH_RESOLVER) ? fake(input, init) : real(input, init),
  );
  return zone;
}

const recordOf = (row: DomainRow, kind: string) => row.records.find((r) => r.kind === kind)!;

/** Publishes a row's records of the given kinds, each as the strings DNS stores. */
export function publish(zone: Record<string, FakeAnswer>, row: DomainRow, kinds = ['verification', 'dkim', 'spf', 'dmarc']) {
  const byName = new Map<string, string[][]>();
  for (const kind of kinds) {
    const r = recordOf(row, kind);
    const strings = r.value === null ? ['v=spf1 ~all'] : r.strings;
    byName.set(r.name, [...(byName.get(r.name) ?? []), strings]);
  }
  for (const [name, records] of byName) {
    const existing = zone[`${name} TXT`];
    const before = existing && typeof existing === 'object' && 'Answer' in existing ? (existing.Answer ?? []) : [];
    zone[`${name} TXT`] = ok([...before, ...txt(name, ...records)]);
  }
}

/** Removes every record at a row's record name. */
export const unpublish = (zone: Record<string, FakeAnswer>, row: DomainRow, kind: string) => delete zone[`${recordOf(row, kind).name} TXT`];

export { env, recordOf };

/** A domain name no other test of the file takes: `<label><random>.example.com`. */
export const uniqueDomain = (label: string) => `${label}${Math.floor(Math.random() * 1e9)}.example.com`;
