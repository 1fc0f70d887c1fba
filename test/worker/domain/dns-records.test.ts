// The records to publish (src/lib/dns/records-to-publish.ts): names, values and the zone-file form with a 2048-bit
// DKIM key split into strings of at most 255 bytes, which the DKIM check reads back as the same key.
import { describe, expect, it } from 'vitest';
import { checkDkimRecord } from '../../../src/lib/dns/check-dkim';
import { recordsToPublish, spfRecordWith } from '../../../src/lib/dns/records-to-publish';
import { spfMechanismForRelay } from '../../../src/lib/dns/relay-spf';
import { joinTxtData, quoteTxtValue, splitTxtValue } from '../../../src/lib/dns/txt-strings';
import { fakeDoh, ok } from './fake-doh';

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

async function rsaPublicKey(): Promise<string> {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const spki = new Uint8Array((await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer);
  return btoa(String.fromCharCode(...spki));
}

const input = (publicKey: string) => ({
  domain: 'Mail.Example.co.uk',
  verificationToken: 'tok123',
  dkimSelector: 'relay202611',
  dkimPublicKey: publicKey,
  spfMechanism: 'include:relay.example.net',
  dmarcReportAddress: 'dmarc@example.co.uk',
});

describe('records to publish', () => {
  it('names and values of the verification, DKIM, SPF and DMARC records', () => {
    const records = recordsToPublish(input('KEY'));
    expect(records.verification).toEqual({
      type: 'TXT',
      name: '_relay-verification.mail.example.co.uk',
      value: 'relay-verification=tok123',
      strings: ['relay-verification=tok123'],
      zoneValue: '"relay-verification=tok123"',
    });
    expect(records.dkim).toMatchObject({ name: 'relay202611._domainkey.mail.example.co.uk', value: 'v=DKIM1; k=rsa; p=KEY' });
    expect(records.spf).toEqual({
      name: 'mail.example.co.uk',
      mechanism: 'include:relay.example.net',
      record: expect.objectContaining({ name: 'mail.example.co.uk', value: 'v=spf1 include:relay.example.net ~all' }),
    });
    expect(records.dmarc).toMatchObject({ name: '_dmarc.mail.example.co.uk', value: 'v=DMARC1; p=none; rua=mailto:dmarc@example.co.uk' });
  });

  it('splits a 2048-bit DKIM key into quoted strings of at most 255 bytes that read back as the key', async () => {
    const key = await rsaPublicKey();
    const { dkim } = recordsToPublish(input(key));
    expect(dkim.value.length).toBeGreaterThan(255);
    expect(dkim.strings).toHaveLength(2);
    expect(dkim.strings.every((s) => utf8Length(s) <= 255)).toBe(true);
    expect(dkim.strings.join('')).toBe(dkim.value);
    expect(dkim.zoneValue).toBe(`"${dkim.strings[0]}" "${dkim.strings[1]}"`);
    expect(joinTxtData(dkim.zoneValue)).toBe(dkim.value);
    // Published as rendered, the DKIM check finds it right.
    const dns = fakeDoh({ [`${dkim.name} TXT`]: ok([{ name: `${dkim.name}.`, type: 16, data: dkim.zoneValue }]) });
    expect(await checkDkimRecord('mail.example.co.uk', 'relay202611', key, dns.options())).toMatchObject({ status: 'ok' });
  });

  it('leaves the SPF record to the console to explain when the relay is unknown', () => {
    expect(recordsToPublish({ ...input('KEY'), spfMechanism: null }).spf).toEqual({ name: 'mail.example.co.uk', mechanism: null, record: null });
  });

  it("adds the relay's mechanism to an existing SPF record before its all, once", () => {
    expect(spfRecordWith('include:relay.example.net', 'v=spf1 mx -all')).toBe('v=spf1 mx include:relay.example.net -all');
    expect(spfRecordWith('include:relay.example.net', 'v=spf1  mx redirect=_spf.example.com')).toBe(
      'v=spf1 mx redirect=_spf.example.com include:relay.example.net',
    );
    expect(spfRecordWith('include:relay.example.net', 'v=spf1 +Include:Relay.example.net ~all')).toBe('v=spf1 +Include:Relay.example.net ~all');
    expect(spfRecordWith('include:relay.example.net', null)).toBe('v=spf1 include:relay.example.net ~all');
    const records = recordsToPublish({ ...input('KEY'), existingSpf: 'v=spf1 ip4:192.0.2.1 ?all' });
    expect(records.spf.record?.value).toBe('v=spf1 ip4:192.0.2.1 include:relay.example.net ?all');
  });
});

describe('TXT strings', () => {
  it('split by bytes, never inside a UTF-8 character, and quote with escapes', () => {
    expect(splitTxtValue('')).toEqual(['']);
    expect(splitTxtValue('a'.repeat(255))).toEqual(['a'.repeat(255)]);
    expect(splitTxtValue('a'.repeat(256))).toEqual(['a'.repeat(255), 'a']);
    const parts = splitTxtValue(`${'a'.repeat(254)}é`);
    expect(parts).toEqual(['a'.repeat(254), 'é']);
    expect(quoteTxtValue('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"');
    expect(joinTxtData(quoteTxtValue('say "hi" \\ bye'))).toBe('say "hi" \\ bye');
  });
});

describe('the SPF mechanism of a known relay', () => {
  it.each([
    ['smtp.sendgrid.net', 'include:sendgrid.net'],
    ['SMTP.EU.Mailgun.org.', 'include:mailgun.org'],
    ['email-smtp.eu-west-1.amazonaws.com', 'include:amazonses.com'],
    ['smtp-relay.brevo.com', 'include:spf.brevo.com'],
    ['smtp.office365.com', 'include:spf.protection.outlook.com'],
  ])('%s needs %s', (host, mechanism) => {
    expect(spfMechanismForRelay(host)).toBe(mechanism);
  });

  it('is unknown for any other host (the console explains), lookalikes included', () => {
    for (const host of ['127.0.0.1', 'mail.acme.test', 'ec2-1-2-3-4.compute.amazonaws.com', 'notsendgrid.net', 'sendgrid.net.evil.test']) {
      expect(spfMechanismForRelay(host), host).toBeNull();
    }
  });
});
