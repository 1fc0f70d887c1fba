// The sending-domain API (src/modules/domain): adding a domain (its key made and sealed, the name checked), the
// records it answers, checks over a stand-in resolver, and tenancy.
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import { decryptSecret } from '../../../src/lib/crypto/secret-box';
import { importDkimKey } from '../../../src/lib/dkim/keys';
import { domainRowSchema } from '../../../src/shared/contracts/domain';
import { createIntegration, newOrg, row, SMTP_INPUT } from '../channel-helpers';
import { call } from '../helpers';
import { publish, recordOf, stubResolver, uniqueDomain, unpublish } from './domain-helpers';
import type { FakeAnswer } from './fake-doh';

let zone: Record<string, FakeAnswer>;
beforeEach(() => {
  zone = stubResolver();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('adding a domain', () => {
  it('makes an RSA-2048 key, stores it sealed (not the PKCS#8 in clear) and answers the records to publish', async () => {
    const o = await newOrg('dom');
    const name = uniqueDomain('Mail');
    const res = await o.api('POST', '/domain', { domain: ` ${name.toUpperCase()} ` });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data).toMatchObject({ domain: name.toLowerCase(), status: 'pending', verified_at: null, next_dkim_selector: null, checked_at: null, senders: 0 });
    expect(data.dkim_selector).toMatch(/^relay\d{6}a$/);
    expect(domainRowSchema.strict().parse(data)).toEqual(data);
    expect(data.records.map((r: { kind: string }) => r.kind)).toEqual(['verification', 'dkim', 'spf', 'dmarc']);
    expect(data.records.every((r: { status: string }) => r.status === 'unchecked')).toBe(true);

    const stored = (await row<{ dkim_private_key: string; dkim_public_key: string; verification_token: string }>('sending_domains', data.id))!;
    expect(stored.dkim_private_key).not.toContain('PRIVATE KEY');
    expect(stored.dkim_private_key).toMatch(/^v1\.test1\./);
    const pem = await decryptSecret(env.SECRETS_KEY, stored.dkim_private_key);
    const key = await importDkimKey(pem);
    expect((key.algorithm as { modulusLength: number }).modulusLength).toBe(2048);

    const verification = recordOf(data, 'verification');
    expect(verification).toMatchObject({
      name: `_relay-verification.${name.toLowerCase()}`,
      value: `relay-verification=${stored.verification_token}`,
      required: true,
    });
    // The DKIM record is longer than one 255-byte string: answered split, and quoted for a zone file.
    const dkim = recordOf(data, 'dkim');
    expect(dkim.name).toBe(`${data.dkim_selector}._domainkey.${name.toLowerCase()}`);
    expect(dkim.value).toBe(`v=DKIM1; k=rsa; p=${stored.dkim_public_key}`);
    expect(dkim.strings.length).toBe(2);
    expect(dkim.strings.every((s: string) => new TextEncoder().encode(s).length <= 255)).toBe(true);
    expect(dkim.strings.join('')).toBe(dkim.value);
    expect(dkim.zone_value).toBe(dkim.strings.map((s: string) => `"${s}"`).join(' '));
    expect(recordOf(data, 'dmarc')).toMatchObject({
      name: `_dmarc.${name.toLowerCase()}`,
      value: `v=DMARC1; p=none; rua=mailto:dmarc@${name.toLowerCase()}`,
      required: false,
    });
    // The organisation's relay is unknown (no integration): SPF is explained, not given.
    expect(recordOf(data, 'spf')).toMatchObject({ name: name.toLowerCase(), value: null, zone_value: null, note: 'relay_unknown' });
  });

  it('gives the SPF mechanism of a known relay, and punycode for an international name', async () => {
    const o = await newOrg('dom');
    await createIntegration(o, { ...SMTP_INPUT, details: { ...SMTP_INPUT.details, server: 'smtp.sendgrid.net' } });
    const res = await o.api('POST', '/domain', { domain: 'Bücher.example' });
    expect(res.status).toBe(201);
    expect(res.body.data.domain).toBe('xn--bcher-kva.example');
    expect(recordOf(res.body.data, 'spf')).toMatchObject({ value: 'v=spf1 include:sendgrid.net ~all' });
  });

  it('refuses with 422 what is not a domain of its own', async () => {
    const o = await newOrg('dom');
    for (const domain of ['', 'localhost', '192.168.1.10', '[::1]', 'co.uk', 'github.io', 'a..b.com', '-bad.example.com', 'exa mple.com', 'x.com/path', 42]) {
      const res = await o.api('POST', '/domain', { domain });
      expect(res.status, String(domain)).toBe(422);
      expect(res.body.error.fields.domain).toEqual(['Must be a domain name such as mail.example.com']);
    }
    const bounce = await call(o.org, '/api/v1/domain', { method: 'POST', token: o.token, json: { domain: 'x' } });
    expect(bounce.status).toBe(422);
    expect((await o.api('POST', '/domain', { domain: 'a.com', extra: 1 })).status).toBe(422);
    const name = uniqueDomain('dup');
    expect((await o.api('POST', '/domain', { domain: name })).status).toBe(201);
    const again = await o.api('POST', '/domain', { domain: name.toUpperCase() });
    expect(again.status).toBe(422);
    expect(again.body.error.fields.domain).toEqual(['This organisation already has this domain']);
  });

  it("refuses the platform's own host and names under it", async () => {
    const o = await newOrg('dom');
    const host = new URL(env.PUBLIC_URL).hostname;
    if (host.includes('.')) {
      const res = await o.api('POST', '/domain', { domain: `mail.${host}` });
      expect(res.status).toBe(422);
      expect(res.body.error.fields.domain).toEqual(["This is the platform's own domain: add a domain of your own"]);
    }
    const { readDomainName } = await import('../../../src/modules/domain/name');
    const platform = { PUBLIC_URL: 'https://relay.example.net', BOUNCE_DOMAIN: 'bounces.example.org' };
    expect(readDomainName('relay.example.net', platform)).toEqual({ ok: false, reason: 'platformDomain' });
    expect(readDomainName('x.bounces.example.org', platform)).toEqual({ ok: false, reason: 'platformDomain' });
    expect(readDomainName('example.net', platform)).toEqual({ ok: true, domain: 'example.net' });
    expect(readDomainName('shop.example.co.uk', platform)).toEqual({ ok: true, domain: 'shop.example.co.uk' });
  });
});

describe('checking a domain', () => {
  it('answers each record status from the resolver, and verifies once the verification and DKIM records are there', async () => {
    const o = await newOrg('dom');
    const created = (await o.api('POST', '/domain', { domain: uniqueDomain('chk') })).body.data;
    let res = await o.api('POST', `/domain/${created.id}/check`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('pending');
    expect(res.body.data.records.map((r: { status: string }) => r.status)).toEqual(['missing', 'missing', 'missing', 'missing']);
    expect(res.body.data.checked_at).not.toBeNull();

    // Verification only: still pending (the key record is needed too); a wrong DKIM key says what it found.
    publish(zone, created, ['verification']);
    const dkim = recordOf(created, 'dkim');
    zone[`${dkim.name} TXT`] = { Status: 0, Answer: [{ name: `${dkim.name}.`, type: 16, data: '"v=DKIM1; k=rsa; p=AAAA"' }] };
    res = await o.api('POST', `/domain/${created.id}/check`);
    expect(res.body.data.status).toBe('pending');
    expect(recordOf(res.body.data, 'verification').status).toBe('ok');
    expect(recordOf(res.body.data, 'dkim')).toMatchObject({ status: 'wrong', found: ['v=DKIM1; k=rsa; p=AAAA'], problem: 'key_differs' });

    // SERVFAIL is "could not check", never ok.
    zone[`${dkim.name} TXT`] = { Status: 2 };
    res = await o.api('POST', `/domain/${created.id}/check`);
    expect(recordOf(res.body.data, 'dkim')).toMatchObject({ status: 'unavailable', reason: 'SERVFAIL' });
    expect(res.body.data.status).toBe('pending');

    delete zone[`${dkim.name} TXT`];
    publish(zone, created, ['dkim', 'spf', 'dmarc']);
    res = await o.api('POST', `/domain/${created.id}/check`);
    expect(res.body.data.status).toBe('verified');
    expect(res.body.data.verified_at).not.toBeNull();
    expect(res.body.data.records.map((r: { status: string }) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(res.body.data.alignment).toEqual({ dkim: 'aligned', spf: 'aligned', dmarc_policy: 'none' });
    expect(domainRowSchema.strict().parse(res.body.data)).toEqual(res.body.data);
  });

  it('judges SPF alignment against the bounce domain, relaxed (the same organisational domain)', async () => {
    const { alignmentOf } = await import('../../../src/modules/domain/org-context');
    const context = { integrations: [{ id: 1, server: 'smtp.example.net', returnPath: null, dkimSigning: true }], emailSenders: [] };
    expect(alignmentOf(context, { BOUNCE_DOMAIN: 'bounces.example.co.uk' }, 'shop.example.co.uk', true)).toEqual({ dkim: 'aligned', spf: 'aligned' });
    expect(alignmentOf(context, { BOUNCE_DOMAIN: 'bounces.other.co.uk' }, 'shop.example.co.uk', true)).toEqual({ dkim: 'aligned', spf: 'not_aligned' });
    expect(alignmentOf(context, {}, 'example.com', false).dkim).toBe('not_signing');
    const relaySigns = { ...context, integrations: [{ ...context.integrations[0], dkimSigning: false }] };
    expect(alignmentOf(relaySigns, {}, 'example.com', true).dkim).toBe('not_signing');
  });
});

describe('tenancy', () => {
  it('another organisation can neither read, check, rotate nor delete the domain (404); keys may only read', async () => {
    const a = await newOrg('doma');
    const b = await newOrg('domb');
    const created = (await b.api('POST', '/domain', { domain: uniqueDomain('ten') })).body.data;
    expect((await a.api('GET', `/domain/${created.id}`)).status).toBe(404);
    expect((await a.api('POST', `/domain/${created.id}/check`)).status).toBe(404);
    expect((await a.api('POST', `/domain/${created.id}/rotate-key`)).status).toBe(404);
    expect((await a.api('DELETE', `/domain/${created.id}`)).status).toBe(404);
    expect((await a.api('GET', '/domain')).body.items).toEqual([]);
    expect((await b.api('GET', '/domain')).body.items.map((d: { id: number }) => d.id)).toEqual([created.id]);
    expect((await b.api('GET', '/domain/abc')).status).toBe(404);

    const key = (await b.api('POST', '/organization-api-key', { name: 'full', scope: 'full' })).body.data.key;
    const read = await call(b.org, `/api/v1/domain/${created.id}`, { token: key });
    expect(read.status).toBe(200);
    const write = await call(b.org, '/api/v1/domain', { method: 'POST', token: key, json: { domain: uniqueDomain('key') } });
    expect(write.status).toBe(403);

    expect((await b.api('DELETE', `/domain/${created.id}`)).body).toEqual({ data: { deleted: 1 } });
    expect((await b.api('GET', `/domain/${created.id}`)).status).toBe(404);
    const log = (await b.api('GET', `/activity-log?entity=domain&entity_id=${created.id}`)).body.items;
    expect(log.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['create', 'delete']));
  });

  it('unpublished records count as missing again', async () => {
    const o = await newOrg('dom');
    const created = (await o.api('POST', '/domain', { domain: uniqueDomain('unp') })).body.data;
    publish(zone, created);
    expect((await o.api('POST', `/domain/${created.id}/check`)).body.data.status).toBe('verified');
    unpublish(zone, created, 'dmarc');
    const res = await o.api('POST', `/domain/${created.id}/check`);
    // DMARC is advised, not needed: the domain stays verified.
    expect(res.body.data.status).toBe('verified');
    expect(recordOf(res.body.data, 'dmarc').status).toBe('missing');
  });
});
