// A DNS-over-HTTPS client on the JSON API (Cloudflare's and Google's `application/dns-json`: GET ?name=&type=,
// answering { Status, TC, Answer: [{ name, type, TTL, data }] }). It never throws: every failure to get an answer
// (a timeout, SERVFAIL, REFUSED, an HTTP error, a body that is not that JSON) is `unavailable` with the reason, so a
// check can say "could not check" and never mistake it for a missing or present record.
import { joinTxtData } from './txt-strings';

/** Cloudflare's public resolver (the production default; `DNS_RESOLVER_URL` overrides it). */
export const DEFAULT_DOH_RESOLVER = 'https://cloudflare-dns.com/dns-query';

export type DnsLookup = { status: 'ok'; records: string[] } | { status: 'nxdomain' } | { status: 'empty' } | { status: 'unavailable'; reason: string };

export interface DohOptions {
  resolverUrl: string;
  /** The fetch to use (tests pass a fake); the global one by default. */
  fetch?: typeof fetch;
  /** How long one question may take, the body included. */
  timeoutMs?: number;
}

const TYPE_CODE = { TXT: 16, CNAME: 5, A: 1, AAAA: 28 } as const;
type QueryType = keyof typeof TYPE_CODE;

/** DNS response codes a resolver may answer, by number (RFC 1035 4.1.1, RFC 6895). */
const RCODE_NAMES: Record<number, string> = { 1: 'FORMERR', 2: 'SERVFAIL', 4: 'NOTIMP', 5: 'REFUSED' };

/** More CNAME hops than any sane zone has: a longer chain is a loop or a mistake. */
const MAX_CNAME_HOPS = 8;

interface DohRecord {
  name: string;
  type: number;
  data: string;
}
type DohAnswer = { rcode: number; records: DohRecord[] } | { unavailable: string };

/** A name as DNS compares it: case-insensitive, the root's trailing dot dropped. */
export const normalizeName = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/** The TXT records at a name (each record's strings joined), following a CNAME chain to them. */
export async function lookupTxt(name: string, options: DohOptions): Promise<DnsLookup> {
  let current = normalizeName(name);
  const seen = new Set<string>();
  for (let query = 0; query <= MAX_CNAME_HOPS; query++) {
    const answer = await ask(current, 'TXT', options);
    if ('unavailable' in answer) return { status: 'unavailable', reason: answer.unavailable };
    if (answer.rcode === 3) return { status: 'nxdomain' };
    if (answer.rcode !== 0) return { status: 'unavailable', reason: RCODE_NAMES[answer.rcode] ?? `DNS error ${answer.rcode}` };
    // Walk the chain inside this answer: a recursive resolver gives the CNAMEs and the target's records together.
    const start = current;
    for (;;) {
      if (seen.has(current)) return { status: 'unavailable', reason: `CNAME loop at ${current}` };
      seen.add(current);
      const txt = answer.records.filter((r) => r.type === TYPE_CODE.TXT && normalizeName(r.name) === current);
      if (txt.length > 0) return { status: 'ok', records: txt.map((r) => joinTxtData(r.data)) };
      const alias = answer.records.find((r) => r.type === TYPE_CODE.CNAME && normalizeName(r.name) === current);
      if (!alias) break;
      current = normalizeName(alias.data);
      if (seen.size > MAX_CNAME_HOPS) return { status: 'unavailable', reason: 'CNAME chain too long' };
    }
    // The chain ended on a name this answer holds nothing for: ask about it, unless nothing was followed.
    if (current === start) return { status: 'empty' };
    seen.delete(current);
  }
  return { status: 'unavailable', reason: 'CNAME chain too long' };
}

/** The target of the CNAME at a name (one hop), `empty` when the name is no alias. */
export async function lookupCname(name: string, options: DohOptions): Promise<DnsLookup> {
  const owner = normalizeName(name);
  const answer = await ask(owner, 'CNAME', options);
  if ('unavailable' in answer) return { status: 'unavailable', reason: answer.unavailable };
  if (answer.rcode === 3) return { status: 'nxdomain' };
  if (answer.rcode !== 0) return { status: 'unavailable', reason: RCODE_NAMES[answer.rcode] ?? `DNS error ${answer.rcode}` };
  const alias = answer.records.find((r) => r.type === TYPE_CODE.CNAME && normalizeName(r.name) === owner);
  return alias ? { status: 'ok', records: [normalizeName(alias.data)] } : { status: 'empty' };
}

/**
 * The addresses (A or AAAA) a name resolves to, through any CNAMEs the resolver followed in its answer (a recursive
 * resolver answers the chain and the target's records together).
 */
export async function lookupAddresses(name: string, type: 'A' | 'AAAA', options: DohOptions): Promise<DnsLookup> {
  const answer = await ask(normalizeName(name), type, options);
  if ('unavailable' in answer) return { status: 'unavailable', reason: answer.unavailable };
  if (answer.rcode === 3) return { status: 'nxdomain' };
  if (answer.rcode !== 0) return { status: 'unavailable', reason: RCODE_NAMES[answer.rcode] ?? `DNS error ${answer.rcode}` };
  const records = answer.records.filter((r) => r.type === TYPE_CODE[type]).map((r) => r.data.trim());
  return records.length > 0 ? { status: 'ok', records } : { status: 'empty' };
}

/** One question to the resolver: its response code and records, or why there is no answer. */
async function ask(name: string, type: QueryType, options: DohOptions): Promise<DohAnswer> {
  const { resolverUrl, timeoutMs = 5000 } = options;
  const doFetch = options.fetch ?? fetch;
  let url: URL;
  try {
    url = new URL(resolverUrl);
  } catch {
    return { unavailable: 'the resolver URL is not a URL' };
  }
  url.searchParams.set('name', name);
  url.searchParams.set('type', type);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A timer of our own as well as the abort: a fetch (or a body) that ignores the signal still ends on time.
  const timeout = new Promise<DohAnswer>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ unavailable: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
  });
  const exchange = (async (): Promise<DohAnswer> => {
    try {
      const res = await doFetch(url.toString(), { headers: { accept: 'application/dns-json' }, signal: controller.signal });
      if (!res.ok) {
        await res.body?.cancel();
        return { unavailable: `the resolver answered HTTP ${res.status}` };
      }
      return readAnswer(await res.text());
    } catch (err) {
      return { unavailable: controller.signal.aborted ? `no answer within ${timeoutMs / 1000} s` : `the resolver could not be reached (${messageOf(err)})` };
    }
  })();
  try {
    return await Promise.race([exchange, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads the JSON body: a number Status, TC not set, and records with a name, a number type and string data. */
function readAnswer(text: string): DohAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { unavailable: 'the resolver answered something other than DNS JSON' };
  }
  if (!isObject(body) || typeof body.Status !== 'number') return { unavailable: 'the resolver answered something other than DNS JSON' };
  // A truncated answer may lack records: saying "missing" from it could be wrong.
  if (body.TC === true) return { unavailable: 'the answer was truncated' };
  const answer = body.Answer ?? [];
  if (!Array.isArray(answer)) return { unavailable: 'the resolver answered something other than DNS JSON' };
  const records: DohRecord[] = [];
  for (const r of answer) {
    if (!isObject(r) || typeof r.name !== 'string' || typeof r.type !== 'number' || typeof r.data !== 'string') {
      return { unavailable: 'the resolver answered something other than DNS JSON' };
    }
    records.push({ name: r.name, type: r.type, data: r.data });
  }
  return { rcode: body.Status, records };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
