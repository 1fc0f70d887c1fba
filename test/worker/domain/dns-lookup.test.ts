// The DoH client (src/lib/dns/doh.ts) against canned answers of the JSON API: records joined as DNS says, CNAME
// chains followed, and every way of not getting an answer reported as unavailable, never thrown.
import { describe, expect, it } from 'vitest';
import { lookupCname, lookupTxt } from '../../../src/lib/dns/doh';
import { joinTxtData } from '../../../src/lib/dns/txt-strings';
import { cname, fakeDoh, ok, RESOLVER, txt } from './fake-doh';

describe('lookupTxt', () => {
  it('asks the resolver with GET ?name=&type=TXT and accept: application/dns-json', async () => {
    const dns = fakeDoh({ 'example.com TXT': ok(txt('example.com', ['hello'])) });
    expect(await lookupTxt('Example.COM.', dns.options())).toEqual({ status: 'ok', records: ['hello'] });
    expect(dns.asked).toEqual([{ name: 'example.com', type: 'TXT', accept: 'application/dns-json', url: `${RESOLVER}?name=example.com&type=TXT` }]);
  });

  it("joins one record's several strings and keeps separate records apart", async () => {
    const dns = fakeDoh({
      'sel._domainkey.example.com TXT': ok(txt('sel._domainkey.example.com', ['v=DKIM1; k=rsa; p=MIIBIjAN', 'BgkqhkiG9w0B'], ['second record'])),
    });
    expect(await lookupTxt('sel._domainkey.example.com', dns.options())).toEqual({
      status: 'ok',
      records: ['v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0B', 'second record'],
    });
  });

  it('reads escapes in quoted strings, and data a resolver gives unquoted as it is', () => {
    expect(joinTxtData('"say \\"hi\\"" "back\\\\slash" "caf\\195\\169"')).toBe('say "hi"back\\slashcafé');
    expect(joinTxtData('v=spf1 -all')).toBe('v=spf1 -all');
    expect(joinTxtData('""')).toBe('');
  });

  it('follows a CNAME chain inside one answer to the TXT records of its end', async () => {
    const dns = fakeDoh({
      '_dmarc.example.com TXT': ok(
        [cname('_dmarc.example.com', 'dmarc.hop.example.net'), cname('dmarc.hop.example.net', 'dmarc.provider.example')],
        txt('dmarc.provider.example', ['v=DMARC1; p=reject']),
        // A record of another name in the same answer is not the chain's.
        txt('unrelated.example', ['v=DMARC1; p=none']),
      ),
    });
    expect(await lookupTxt('_dmarc.example.com', dns.options())).toEqual({ status: 'ok', records: ['v=DMARC1; p=reject'] });
    expect(dns.asked).toHaveLength(1);
  });

  it('asks again for the end of a chain the answer stops at, and reports a chain that ends nowhere', async () => {
    const dns = fakeDoh({
      's1._domainkey.example.com TXT': ok([cname('s1._domainkey.example.com', 's1.keys.example.net')]),
      's1.keys.example.net TXT': ok(txt('s1.keys.example.net', ['v=DKIM1; p=KEY'])),
      'dangling.example.com TXT': ok([cname('dangling.example.com', 'gone.example.net')]),
    });
    expect(await lookupTxt('s1._domainkey.example.com', dns.options())).toEqual({ status: 'ok', records: ['v=DKIM1; p=KEY'] });
    expect(dns.asked.map((a) => a.name)).toEqual(['s1._domainkey.example.com', 's1.keys.example.net']);
    expect(await lookupTxt('dangling.example.com', dns.options())).toEqual({ status: 'nxdomain' });
  });

  it('stops at a CNAME loop, across answers too', async () => {
    const dns = fakeDoh({
      'a.example.com TXT': ok([cname('a.example.com', 'b.example.com'), cname('b.example.com', 'a.example.com')]),
      'c.example.com TXT': ok([cname('c.example.com', 'd.example.com')]),
      'd.example.com TXT': ok([cname('d.example.com', 'c.example.com')]),
    });
    expect(await lookupTxt('a.example.com', dns.options())).toEqual({ status: 'unavailable', reason: 'CNAME loop at a.example.com' });
    expect(await lookupTxt('c.example.com', dns.options())).toMatchObject({ status: 'unavailable' });
  });

  it('tells a name that does not exist from one without TXT records', async () => {
    const dns = fakeDoh({ 'example.com TXT': { Status: 0 }, 'example.org TXT': ok([cname('example.org', 'example.net')]), 'example.net TXT': { Status: 0 } });
    expect(await lookupTxt('nowhere.example.com', dns.options())).toEqual({ status: 'nxdomain' });
    expect(await lookupTxt('example.com', dns.options())).toEqual({ status: 'empty' });
    expect(await lookupTxt('example.org', dns.options())).toEqual({ status: 'empty' });
  });

  it('reports SERVFAIL, REFUSED and other response codes as unavailable', async () => {
    const dns = fakeDoh({ 'broken.example TXT': { Status: 2 }, 'refused.example TXT': { Status: 5 }, 'odd.example TXT': { Status: 9 } });
    expect(await lookupTxt('broken.example', dns.options())).toEqual({ status: 'unavailable', reason: 'SERVFAIL' });
    expect(await lookupTxt('refused.example', dns.options())).toEqual({ status: 'unavailable', reason: 'REFUSED' });
    expect(await lookupTxt('odd.example', dns.options())).toEqual({ status: 'unavailable', reason: 'DNS error 9' });
  });

  it('reports HTTP errors, bodies that are not DNS JSON and truncated answers as unavailable', async () => {
    const dns = fakeDoh({
      'http.example TXT': { http: 503 },
      'html.example TXT': { body: '<html>captive portal</html>' },
      'shape.example TXT': { body: '{"Status":"0","Answer":[]}' },
      'records.example TXT': { body: '{"Status":0,"Answer":[{"name":"records.example.","type":16}]}' },
      'tc.example TXT': { Status: 0, TC: true, Answer: txt('tc.example', ['partial']) },
    });
    expect(await lookupTxt('http.example', dns.options())).toEqual({ status: 'unavailable', reason: 'the resolver answered HTTP 503' });
    for (const name of ['html.example', 'shape.example', 'records.example']) {
      expect(await lookupTxt(name, dns.options())).toEqual({ status: 'unavailable', reason: 'the resolver answered something other than DNS JSON' });
    }
    expect(await lookupTxt('tc.example', dns.options())).toEqual({ status: 'unavailable', reason: 'the answer was truncated' });
  });

  it('gives up after timeoutMs on a resolver that never answers, and aborts the request', async () => {
    const dns = fakeDoh({ 'slow.example TXT': 'hang' });
    const started = Date.now();
    expect(await lookupTxt('slow.example', dns.options(50))).toEqual({ status: 'unavailable', reason: 'no answer within 0.05 s' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(dns.abortedCount()).toBe(1);
  });

  it('reports an unreachable resolver and a bad resolver URL without throwing', async () => {
    const failing = (async () => {
      throw new TypeError('connection refused');
    }) as typeof fetch;
    expect(await lookupTxt('example.com', { resolverUrl: RESOLVER, fetch: failing })).toEqual({
      status: 'unavailable',
      reason: 'the resolver could not be reached (connection refused)',
    });
    expect(await lookupTxt('example.com', { resolverUrl: 'not a url', fetch: failing })).toEqual({
      status: 'unavailable',
      reason: 'the resolver URL is not a URL',
    });
  });
});

describe('lookupCname', () => {
  it("answers an alias's target, empty for a name that is no alias", async () => {
    const dns = fakeDoh({ 'www.example.com CNAME': ok([cname('www.example.com', 'Example.NET')]), 'example.com CNAME': { Status: 0 } });
    expect(await lookupCname('www.example.com', dns.options())).toEqual({ status: 'ok', records: ['example.net'] });
    expect(await lookupCname('example.com', dns.options())).toEqual({ status: 'empty' });
    expect(dns.asked.map((a) => a.type)).toEqual(['CNAME', 'CNAME']);
  });
});
