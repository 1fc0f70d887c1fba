// The record checks (src/lib/dns/check-*.ts) against canned DoH answers: a status per record, what was found when it
// is wrong, and "could not check" (unavailable) whenever the resolver could not say, never ok.
import { describe, expect, it } from 'vitest';
import { checkDkimRecord } from '../../../src/lib/dns/check-dkim';
import { checkDmarcRecord, parseDmarc } from '../../../src/lib/dns/check-dmarc';
import { checkSpfRecord } from '../../../src/lib/dns/check-spf';
import { checkVerificationRecord } from '../../../src/lib/dns/check-verification';
import { cname, fakeDoh, ok, txt, txtAt } from './fake-doh';

const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwxyz0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/';

describe('verification record', () => {
  const TOKEN = 'c0ffee1234';
  it('is ok when _relay-verification.<domain> holds relay-verification=<token> among other records', async () => {
    const dns = fakeDoh(txtAt('_relay-verification.example.com', 'something else', 'relay-verification=c0ffee1234'));
    expect(await checkVerificationRecord('Example.com', TOKEN, dns.options())).toEqual({
      status: 'ok',
      name: '_relay-verification.example.com',
      found: ['something else', 'relay-verification=c0ffee1234'],
    });
  });

  it('is missing when the name does not exist or holds no TXT, wrong with what it holds otherwise', async () => {
    const dns = fakeDoh({
      ...txtAt('_relay-verification.example.org', 'relay-verification=other-token'),
      '_relay-verification.example.net TXT': { Status: 0 },
    });
    expect(await checkVerificationRecord('example.com', TOKEN, dns.options())).toEqual({ status: 'missing', name: '_relay-verification.example.com' });
    expect(await checkVerificationRecord('example.net', TOKEN, dns.options())).toEqual({ status: 'missing', name: '_relay-verification.example.net' });
    expect(await checkVerificationRecord('example.org', TOKEN, dns.options())).toEqual({
      status: 'wrong',
      name: '_relay-verification.example.org',
      found: ['relay-verification=other-token'],
      problem: 'value_differs',
    });
  });

  it('could not check on SERVFAIL or a timeout', async () => {
    const dns = fakeDoh({ '_relay-verification.example.com TXT': { Status: 2 }, '_relay-verification.example.org TXT': 'hang' });
    expect(await checkVerificationRecord('example.com', TOKEN, dns.options())).toEqual({
      status: 'unavailable',
      name: '_relay-verification.example.com',
      reason: 'SERVFAIL',
    });
    expect(await checkVerificationRecord('example.org', TOKEN, dns.options(30))).toMatchObject({ status: 'unavailable', reason: 'no answer within 0.03 s' });
  });
});

describe('DKIM record', () => {
  const NAME = 'relay1._domainkey.example.com';
  const check = (dns: ReturnType<typeof fakeDoh>, key = KEY) => checkDkimRecord('example.com', 'relay1', key, dns.options(30));

  it('is ok when p= is the key, however the record is split into strings and spaced', async () => {
    const split = fakeDoh({ [`${NAME} TXT`]: ok(txt(NAME, [`v=DKIM1; k=rsa; p=${KEY.slice(0, 40)}`, KEY.slice(40, 90), `${KEY.slice(90)};`])) });
    expect(await check(split)).toEqual({ status: 'ok', name: NAME, found: [`v=DKIM1; k=rsa; p=${KEY};`] });
    const spaced = fakeDoh(txtAt(NAME, `v=DKIM1;k=rsa;  p = ${KEY.slice(0, 50)} ${KEY.slice(50)} `));
    expect(await check(spaced)).toMatchObject({ status: 'ok' });
    // Published through a CNAME to a key host, as some DNS setups delegate it.
    const viaCname = fakeDoh({ [`${NAME} TXT`]: ok([cname(NAME, 'relay1.keys.example.net')], txt('relay1.keys.example.net', [`p=${KEY}`])) });
    expect(await check(viaCname)).toMatchObject({ status: 'ok' });
  });

  it('is wrong, with what it found, for another key, a revoked key, two records or no DKIM key record', async () => {
    const other = `v=DKIM1; k=rsa; p=${KEY.replace('wxyz', 'WXYZ')}`;
    expect(await check(fakeDoh(txtAt(NAME, other)))).toEqual({ status: 'wrong', name: NAME, found: [other], problem: 'key_differs' });
    expect(await check(fakeDoh(txtAt(NAME, 'v=DKIM1; k=rsa; p=')))).toMatchObject({ status: 'wrong', problem: 'key_revoked' });
    expect(await check(fakeDoh(txtAt(NAME, `v=DKIM1; p=${KEY}`, other)))).toMatchObject({
      status: 'wrong',
      problem: 'several_records',
      found: [`v=DKIM1; p=${KEY}`, other],
    });
    for (const record of ['google-site-verification=abc', `v=DKIM2; p=${KEY}`, `v=DKIM1; k=ed25519; p=${KEY}`, 'v=DKIM1; k=rsa']) {
      expect(await check(fakeDoh(txtAt(NAME, record)))).toMatchObject({ status: 'wrong', problem: 'not_a_dkim_key', found: [record] });
    }
  });

  it('is missing without a record, and could not check on SERVFAIL or a timeout (never ok)', async () => {
    expect(await check(fakeDoh({}))).toEqual({ status: 'missing', name: NAME });
    expect(await check(fakeDoh({ [`${NAME} TXT`]: { Status: 2 } }))).toEqual({ status: 'unavailable', name: NAME, reason: 'SERVFAIL' });
    expect(await check(fakeDoh({ [`${NAME} TXT`]: 'hang' }))).toEqual({ status: 'unavailable', name: NAME, reason: 'no answer within 0.03 s' });
  });
});

describe('SPF record', () => {
  const RELAY = 'include:relay.example.net';
  const check = (dns: ReturnType<typeof fakeDoh>, mechanism: string | null = RELAY) => checkSpfRecord('example.com', mechanism, dns.options(30));

  it("is ok when the domain's one SPF record holds the relay's mechanism (case and a + qualifier aside)", async () => {
    const dns = fakeDoh(txtAt('example.com', 'google-site-verification=x', 'v=spf1 mx +INCLUDE:Relay.Example.NET ~all'));
    expect(await check(dns)).toEqual({ status: 'ok', name: 'example.com', found: ['v=spf1 mx +INCLUDE:Relay.Example.NET ~all'], mechanism: RELAY });
  });

  it('is ok when a record it includes or redirects to holds the mechanism', async () => {
    const included = fakeDoh({
      ...txtAt('example.com', 'v=spf1 include:_spf.example.com -all'),
      ...txtAt('_spf.example.com', 'v=spf1 ip4:192.0.2.0/24 include:relay.example.net -all'),
    });
    expect(await check(included)).toMatchObject({ status: 'ok', found: ['v=spf1 include:_spf.example.com -all'] });
    const redirected = fakeDoh({ ...txtAt('example.com', 'v=spf1 redirect=_spf.example.org'), ...txtAt('_spf.example.org', `v=spf1 ${RELAY} -all`) });
    expect(await check(redirected)).toMatchObject({ status: 'ok' });
  });

  it('is wrong without the mechanism, with it after all, or with two SPF records; missing with none', async () => {
    expect(await check(fakeDoh(txtAt('example.com', 'v=spf1 include:other.example -all')))).toEqual({
      status: 'wrong',
      name: 'example.com',
      found: ['v=spf1 include:other.example -all'],
      problem: 'mechanism_absent',
      mechanism: RELAY,
    });
    expect(await check(fakeDoh(txtAt('example.com', `v=spf1 -all ${RELAY}`)))).toMatchObject({ status: 'wrong', problem: 'mechanism_after_all' });
    // redirect= is ignored beside an all.
    const ignoredRedirect = fakeDoh({ ...txtAt('example.com', 'v=spf1 ~all redirect=_spf.example.org'), ...txtAt('_spf.example.org', `v=spf1 ${RELAY} -all`) });
    expect(await check(ignoredRedirect)).toMatchObject({ status: 'wrong', problem: 'mechanism_absent' });
    expect(await check(fakeDoh(txtAt('example.com', `v=spf1 ${RELAY} -all`, 'v=spf1 mx -all')))).toMatchObject({ status: 'wrong', problem: 'several_records' });
    expect(await check(fakeDoh(txtAt('example.com', 'v=spf10 nope', 'hello')))).toEqual({ status: 'missing', name: 'example.com', mechanism: RELAY });
  });

  it('explains an unknown relay: the record alone is checked and the answer says so', async () => {
    expect(await check(fakeDoh(txtAt('example.com', 'v=spf1 mx -all')), null)).toEqual({
      status: 'ok',
      name: 'example.com',
      found: ['v=spf1 mx -all'],
      mechanism: null,
      note: 'relay_unknown',
    });
    expect(await check(fakeDoh({}), null)).toEqual({ status: 'missing', name: 'example.com', mechanism: null });
  });

  it('could not check when the record, or an include that might hold the mechanism, cannot be looked up', async () => {
    expect(await check(fakeDoh({ 'example.com TXT': { Status: 2 } }))).toMatchObject({ status: 'unavailable', reason: 'SERVFAIL' });
    const nested = fakeDoh({ ...txtAt('example.com', 'v=spf1 include:_spf.example.com -all'), '_spf.example.com TXT': 'hang' });
    expect(await check(nested)).toMatchObject({ status: 'unavailable', name: 'example.com' });
  });

  it('follows includes no further than SPF allows (10 lookups) and survives include loops', async () => {
    const chain: Record<string, ReturnType<typeof ok>> = {};
    for (let i = 0; i < 12; i++) Object.assign(chain, txtAt(`s${i}.example.com`, `v=spf1 include:s${i + 1}.example.com -all`));
    const deep = fakeDoh({ ...chain, ...txtAt('example.com', 'v=spf1 include:s0.example.com -all'), ...txtAt('s12.example.com', `v=spf1 ${RELAY} -all`) });
    expect(await check(deep)).toMatchObject({ status: 'wrong', problem: 'mechanism_absent' });
    expect(deep.asked.length).toBeLessThanOrEqual(11);
    const loop = fakeDoh({ ...txtAt('example.com', 'v=spf1 include:a.example.com -all'), ...txtAt('a.example.com', 'v=spf1 include:example.com -all') });
    expect(await check(loop)).toMatchObject({ status: 'wrong', problem: 'mechanism_absent' });
  });
});

describe('DMARC record', () => {
  it('is ok with its policy read (p=, rua=, the defaults of what it leaves out)', async () => {
    const dns = fakeDoh(txtAt('_dmarc.example.com', 'v=DMARC1; p=quarantine; rua=mailto:a@example.com,mailto:b@example.net; adkim=s'));
    expect(await checkDmarcRecord('example.com', dns.options())).toEqual({
      status: 'ok',
      name: '_dmarc.example.com',
      found: ['v=DMARC1; p=quarantine; rua=mailto:a@example.com,mailto:b@example.net; adkim=s'],
      policy: {
        p: 'quarantine',
        sp: null,
        applied: 'quarantine',
        rua: ['mailto:a@example.com', 'mailto:b@example.net'],
        pct: 100,
        adkim: 's',
        aspf: 'r',
        inherited: false,
      },
    });
  });

  it("covers a subdomain with its Organizational Domain's record (sp= applies), on a public-suffix domain too", async () => {
    const dns = fakeDoh({ ...txtAt('_dmarc.example.co.uk', 'v=DMARC1; p=reject; sp=none') });
    const check = await checkDmarcRecord('mail.example.co.uk', dns.options());
    expect(check).toMatchObject({ status: 'ok', name: '_dmarc.example.co.uk', policy: { p: 'reject', sp: 'none', applied: 'none', inherited: true } });
    expect(dns.asked.map((a) => a.name)).toEqual(['_dmarc.mail.example.co.uk', '_dmarc.example.co.uk']);
    // Never above the Organizational Domain: co.uk's record (if any) is nobody's policy.
    const bare = fakeDoh({});
    expect(await checkDmarcRecord('example.co.uk', bare.options())).toEqual({ status: 'missing', name: '_dmarc.example.co.uk' });
    expect(bare.asked.map((a) => a.name)).toEqual(['_dmarc.example.co.uk']);
  });

  it("is missing at the domain's own name when neither it nor its Organizational Domain has one", async () => {
    expect(await checkDmarcRecord('a.b.example.com', fakeDoh(txtAt('_dmarc.example.com', 'not dmarc')).options())).toEqual({
      status: 'missing',
      name: '_dmarc.a.b.example.com',
    });
  });

  it('is wrong for a record that does not parse or has no valid p=, and for two records', async () => {
    for (const record of [
      'v=DMARC1; rua=mailto:a@example.com',
      'v=DMARC1; p=block',
      'v=DMARC1; p=none; pct=150',
      'v=DMARC1; p=none; sp=maybe',
      'v=DMARC1; p=none; junk',
    ]) {
      const check = await checkDmarcRecord('example.com', fakeDoh(txtAt('_dmarc.example.com', record)).options());
      expect(check, record).toEqual({ status: 'wrong', name: '_dmarc.example.com', found: [record], problem: 'dmarc_invalid' });
    }
    const two = fakeDoh(txtAt('_dmarc.example.com', 'v=DMARC1; p=none', 'v=DMARC1; p=reject'));
    expect(await checkDmarcRecord('example.com', two.options())).toMatchObject({ status: 'wrong', problem: 'several_records' });
  });

  it('could not check when the lookup fails, without falling back to the Organizational Domain', async () => {
    const dns = fakeDoh({ '_dmarc.mail.example.com TXT': { Status: 5 }, ...txtAt('_dmarc.example.com', 'v=DMARC1; p=none') });
    expect(await checkDmarcRecord('mail.example.com', dns.options())).toEqual({ status: 'unavailable', name: '_dmarc.mail.example.com', reason: 'REFUSED' });
  });

  it('parseDmarc wants v=DMARC1 first', () => {
    expect(parseDmarc('p=none; v=DMARC1')).toBeNull();
    expect(parseDmarc('v=DMARC1;p=REJECT;pct=20')).toMatchObject({ p: 'reject', pct: 20 });
  });
});
