// @vitest-environment node
// The local DoH stand-in (scripts/doh-stand-in.mjs), a real server on loopback read by the real DoH client and
// checks: it answers the JSON API from its zone file the way a recursive resolver would.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DohStandIn, type DohZone, startDohStandIn } from '../../scripts/doh-stand-in.mjs';
import { checkDkimRecord } from '../../src/lib/dns/check-dkim';
import { checkSpfRecord } from '../../src/lib/dns/check-spf';
import { lookupTxt } from '../../src/lib/dns/doh';

const KEY = `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${'q'.repeat(330)}IDAQAB`;

describe('DoH stand-in', () => {
  let dir: string;
  let file: string;
  let standIn: DohStandIn;
  const writeZone = (zone: DohZone | string) => writeFileSync(file, typeof zone === 'string' ? zone : JSON.stringify(zone));
  const ask = async (name: string, type: string) => {
    const res = await fetch(`${standIn.url}?name=${encodeURIComponent(name)}&type=${type}`, { headers: { accept: 'application/dns-json' } });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
  };
  const options = (timeoutMs = 2000) => ({ resolverUrl: standIn.url, timeoutMs });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'relay-doh-'));
    file = path.join(dir, 'dns.json');
    standIn = await startDohStandIn({ port: 0, file });
  });
  afterAll(async () => {
    await standIn.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers Cloudflare's JSON shape: quoted TXT strings, a long value split at 255 bytes", async () => {
    writeZone({ 'Acme.Test TXT': ['v=spf1 include:relay.example ~all', 'x'.repeat(300)], 'a.acme.test TXT': [['one', 'two']] });
    const { status, type, body } = await ask('acme.test.', 'TXT');
    expect(status).toBe(200);
    expect(type).toBe('application/dns-json');
    expect(body).toMatchObject({ Status: 0, TC: false, Question: [{ name: 'acme.test.', type: 16 }] });
    expect(body.Answer.map((a: any) => [a.name, a.type, a.data])).toEqual([
      ['acme.test.', 16, '"v=spf1 include:relay.example ~all"'],
      ['acme.test.', 16, `"${'x'.repeat(255)}" "${'x'.repeat(45)}"`],
    ]);
    expect((await ask('a.acme.test', '16')).body.Answer[0].data).toBe('"one" "two"');
    expect(await lookupTxt('a.acme.test', options())).toEqual({ status: 'ok', records: ['onetwo'] });
  });

  it('follows CNAMEs, tells NXDOMAIN from a name without such records, and plays failures', async () => {
    writeZone({
      's1._domainkey.acme.test CNAME': ['s1.keys.relay.test'],
      's1.keys.relay.test TXT': [`v=DKIM1; k=rsa; p=${KEY}`],
      'acme.test MX': ['10 mx.acme.test.'],
      'broken.acme.test TXT': { status: 'SERVFAIL' },
      'slow.acme.test TXT': { status: 'TIMEOUT' },
    });
    const chain = (await ask('s1._domainkey.acme.test', 'TXT')).body;
    expect(chain.Answer.map((a: any) => [a.name, a.type])).toEqual([
      ['s1._domainkey.acme.test.', 5],
      ['s1.keys.relay.test.', 16],
    ]);
    expect(await checkDkimRecord('acme.test', 's1', KEY, options())).toMatchObject({ status: 'ok' });
    expect((await ask('s1._domainkey.acme.test', 'CNAME')).body.Answer).toEqual([
      { name: 's1._domainkey.acme.test.', type: 5, TTL: 60, data: 's1.keys.relay.test.' },
    ]);
    // acme.test has an MX, _domainkey.acme.test has names below it: both exist without TXT.
    expect((await ask('acme.test', 'TXT')).body).toMatchObject({ Status: 0 });
    expect((await ask('acme.test', 'TXT')).body.Answer).toBeUndefined();
    expect(await lookupTxt('_domainkey.acme.test', options())).toEqual({ status: 'empty' });
    expect(await lookupTxt('nowhere.acme.test', options())).toEqual({ status: 'nxdomain' });
    expect(await lookupTxt('broken.acme.test', options())).toEqual({ status: 'unavailable', reason: 'SERVFAIL' });
    expect(await lookupTxt('slow.acme.test', options(100))).toEqual({ status: 'unavailable', reason: 'no answer within 0.1 s' });
  });

  it('reads the file on every question, and answers SERVFAIL for a file that is not a zone', async () => {
    writeZone({ 'acme.test TXT': ['v=spf1 -all'] });
    expect(await checkSpfRecord('acme.test', 'include:relay.example', options())).toMatchObject({ status: 'wrong', problem: 'mechanism_absent' });
    writeZone({ 'acme.test TXT': ['v=spf1 include:relay.example -all'] });
    expect(await checkSpfRecord('acme.test', 'include:relay.example', options())).toMatchObject({ status: 'ok' });
    writeZone('{"acme.test TXT": "not a list"}');
    expect((await ask('acme.test', 'TXT')).body.Status).toBe(2);
    rmSync(file);
    expect((await ask('acme.test', 'TXT')).body.Status).toBe(3);
  });

  it('refuses a question without a name or with an unknown type, and other paths', async () => {
    expect((await fetch(`${standIn.url}?type=TXT`)).status).toBe(400);
    expect((await fetch(`${standIn.url}?name=acme.test&type=BOGUS`)).status).toBe(400);
    expect((await fetch(standIn.url.replace('/dns-query', '/other'))).status).toBe(404);
  });
});
