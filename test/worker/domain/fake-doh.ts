// A stand-in DoH resolver for the DNS tests: a fetch that answers the JSON API from a table of canned answers keyed
// by "name TYPE" (a name not in the table does not exist: NXDOMAIN), and records what it was asked.

export interface DohJson {
  Status: number;
  TC?: boolean;
  Answer?: { name: string; type: number; TTL?: number; data: string }[];
}

/** A canned answer: DNS JSON, an HTTP error, a raw body, or no answer at all (the request hangs). */
export type FakeAnswer = DohJson | { http: number } | { body: string } | 'hang';

export const RESOLVER = 'https://doh.test/dns-query';

/** TXT answer records in Cloudflare's form: each record's data is its quoted strings. */
export const txt = (name: string, ...records: string[][]) =>
  records.map((strings) => ({ name: `${name}.`, type: 16, TTL: 300, data: strings.map((s) => `"${s}"`).join(' ') }));
export const cname = (name: string, target: string) => ({ name: `${name}.`, type: 5, TTL: 300, data: `${target}.` });
/** A NOERROR answer with the given records. */
export const ok = (...records: DohJson['Answer'][]): DohJson => ({ Status: 0, Answer: records.flat() as DohJson['Answer'] });
/** TXT records at a name, one string each. */
export const txtAt = (name: string, ...values: string[]): Record<string, FakeAnswer> => ({ [`${name} TXT`]: ok(txt(name, ...values.map((v) => [v]))) });

export function fakeDoh(table: Record<string, FakeAnswer>) {
  const asked: { name: string; type: string; accept: string | null; url: string }[] = [];
  let aborted = 0;
  const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const name = url.searchParams.get('name') ?? '';
    const type = url.searchParams.get('type') ?? '';
    asked.push({ name, type, accept: new Headers(init?.headers).get('accept'), url: url.toString() });
    init?.signal?.addEventListener('abort', () => {
      aborted++;
    });
    const answer = table[`${name} ${type}`] ?? { Status: 3 };
    // Never settles, and ignores the abort signal: the client's own timer must end the wait.
    if (answer === 'hang') return new Promise<Response>(() => {});
    if ('http' in answer) return new Response('upstream trouble', { status: answer.http });
    if ('body' in answer) return new Response(answer.body, { headers: { 'content-type': 'application/dns-json' } });
    const question = [{ name: `${name}.`, type: type === 'CNAME' ? 5 : 16 }];
    return Response.json(
      { TC: false, RD: true, RA: true, AD: false, CD: false, Question: question, ...answer },
      { headers: { 'content-type': 'application/dns-json' } },
    );
  }) as typeof fetch;
  return {
    asked,
    abortedCount: () => aborted,
    options: (timeoutMs = 1000) => ({ resolverUrl: RESOLVER, fetch: fakeFetch, timeoutMs }),
  };
}
