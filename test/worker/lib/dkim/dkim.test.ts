// The DKIM signer in workerd (src/lib/dkim): relaxed canonicalization as RFC 6376 3.4.6's example has it, the empty
// body and trailing empty lines, the h= list (oversigning, relay headers left out), folding, keys and their DNS
// record; and the fixture signed here gives the header Node gave (test/transport/dkim.test.ts compares both live
// and has mailauth verify what the signer makes).
import { describe, expect, it } from 'vitest';
import { relaxedBody, relaxedHeader } from '../../../../src/lib/dkim/canonicalize';
import { parseHeaderFields, selectSignedFields } from '../../../../src/lib/dkim/header-fields';
import { generateDkimKeyPair, importDkimKey } from '../../../../src/lib/dkim/keys';
import { dkimName as dkimRecordName } from '../../../../src/lib/dns/record-names';
import { dkimRecordValue } from '../../../../src/lib/dns/records-to-publish';
import { quoteTxtValue as quotedTxt, splitTxtValue as splitTxt } from '../../../../src/lib/dns/txt-strings';
import { dkimBodyHash, dkimSignatureHeader, signEmail, splitMessage } from '../../../../src/lib/dkim/sign';
import { FIXTURE_MESSAGE, FIXTURE_PRIVATE_KEY, FIXTURE_SIGNATURE, FIXTURE_SIGNER, FIXTURE_TIMESTAMP } from '../../../support/dkim-fixture';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const unfold = (header: string) => header.replace(/\r\n[ \t]/g, ' ');
const tag = (header: string, name: string) => new RegExp(`[; ]${name}=([^;]*)`).exec(unfold(header))?.[1].replace(/\s+/g, '');

describe('relaxed canonicalization', () => {
  it('matches RFC 6376 3.4.6: headers lower-cased and unfolded, whitespace runs one space, trailing empty lines gone', () => {
    expect(relaxedHeader('A', ' X')).toBe('a:X');
    expect(relaxedHeader('B ', ' Y\t\r\n\tZ  ')).toBe('b:Y Z');
    expect(text(relaxedBody(' C \r\nD \t E\r\n\r\n\r\n'))).toBe(' C\r\nD E\r\n');
  });

  it('keeps an empty body empty (its hash is SHA-256 of nothing) and gives a body of empty lines the same hash', async () => {
    const emptyHash = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
    expect(relaxedBody('')).toHaveLength(0);
    expect(await dkimBodyHash('')).toBe(emptyHash);
    expect(await dkimBodyHash('\r\n\r\n \t\r\n')).toBe(emptyHash);
  });

  it('ends a body with CRLF, drops whitespace at line ends (the last line too) and reads bare CR and LF as CRLF', () => {
    expect(text(relaxedBody('abc'))).toBe('abc\r\n');
    expect(text(relaxedBody('abc \t'))).toBe('abc\r\n');
    expect(text(relaxedBody('a\nb\rc\r\n\n'))).toBe('a\r\nb\r\nc\r\n');
    // Mostly bare line ends: the output is longer than the input.
    const lines = Array.from({ length: 500 }, (_, i) => `l${i}`);
    expect(text(relaxedBody(lines.join('\n')))).toBe(`${lines.join('\r\n')}\r\n`);
    expect(text(relaxedBody(`${'\n'.repeat(300)}x`))).toBe(`${'\r\n'.repeat(300)}x\r\n`);
  });

  it('gives text and its UTF-8 bytes the same result, non-ASCII kept as it is', async () => {
    const body = 'Größe  →\tok \r\n.dot\r\n';
    expect(text(relaxedBody(new TextEncoder().encode(body)))).toBe('Größe → ok\r\n.dot\r\n');
    expect(await dkimBodyHash(new TextEncoder().encode(body))).toBe(await dkimBodyHash(body));
  });
});

describe('signed headers', () => {
  const block = [
    'Date: Mon, 21 Sep 2026 10:13:20 +0000',
    'From: <news@acme.test>',
    'To: <a@example.test>',
    'Cc: <b@example.test>,',
    ' <c@example.test>',
    'Message-ID: <1@acme.test>',
    'Return-Path: <bounces@acme.test>',
    'X-SMTPAPI: {}',
    'Received: from x',
    'List-Id: One <one.acme.test>',
    'List-Id: Two <two.acme.test>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain',
    '',
    '',
  ].join('\r\n');

  it('names the listed headers present, From and Subject once more than they occur, each duplicate bottom-up', () => {
    const { names, covered } = selectSignedFields(parseHeaderFields(block));
    expect(names).toEqual(['from', 'from', 'to', 'cc', 'subject', 'date', 'message-id', 'mime-version', 'content-type', 'list-id', 'list-id']);
    // What each listing covers: the extra From and the absent Subject cover nothing; List-Id the last one first.
    expect(covered.map((f) => relaxedHeader(f.name, f.value))).toEqual([
      'from:<news@acme.test>',
      'to:<a@example.test>',
      'cc:<b@example.test>, <c@example.test>',
      'date:Mon, 21 Sep 2026 10:13:20 +0000',
      'message-id:<1@acme.test>',
      'mime-version:1.0',
      'content-type:text/plain',
      'list-id:Two <two.acme.test>',
      'list-id:One <one.acme.test>',
    ]);
  });
});

describe('DKIM-Signature', () => {
  it('makes in workerd the header Node made for the fixed key, message and time', async () => {
    const key = await importDkimKey(FIXTURE_PRIVATE_KEY);
    const header = await dkimSignatureHeader({ ...FIXTURE_SIGNER, key }, splitMessage(FIXTURE_MESSAGE), { timestamp: FIXTURE_TIMESTAMP });
    expect(header).toBe(FIXTURE_SIGNATURE);
  });

  it('is folded to lines of at most 78 characters and carries the tags receivers need', async () => {
    const key = await importDkimKey(FIXTURE_PRIVATE_KEY);
    const signed = await signEmail({ domain: 'mail.acme.test', selector: 'r2027', key }, FIXTURE_MESSAGE);
    const header = signed.slice(0, signed.indexOf('\r\nDate:') + 2);
    expect(header).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=mail\.acme\.test;/);
    expect(header.endsWith('\r\n')).toBe(true);
    for (const line of header.slice(0, -2).split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    expect(
      header
        .slice(0, -2)
        .split('\r\n')
        .slice(1)
        .every((line) => line.startsWith(' ')),
    ).toBe(true);
    expect(tag(header, 's')).toBe('r2027');
    expect(Math.abs(Number(tag(header, 't')) - Date.now() / 1000)).toBeLessThan(60);
    expect(tag(header, 'bh')).toBe(await dkimBodyHash(splitMessage(FIXTURE_MESSAGE).body));
    expect(tag(header, 'h')).toBe('from:from:to:subject:subject:date:message-id:mime-version:content-type:list-unsubscribe:list-unsubscribe-post');
    expect(tag(header, 'b')).toMatch(/^[A-Za-z0-9+/]{342}==$/); // 256 bytes: a 2048-bit signature
    expect(signed.slice(header.length)).toBe(FIXTURE_MESSAGE);
  });

  it('refuses a domain or selector that would break the header', async () => {
    const key = await importDkimKey(FIXTURE_PRIVATE_KEY);
    const message = splitMessage(FIXTURE_MESSAGE);
    await expect(dkimSignatureHeader({ domain: 'acme.test; x=1', selector: 's', key }, message)).rejects.toThrow(/domain/);
    await expect(dkimSignatureHeader({ domain: 'acme.test', selector: 'a b', key }, message)).rejects.toThrow(/selector/);
  });
});

describe('DKIM keys and records', () => {
  it('makes an RSA-2048 pair whose private key imports (PEM and DER) and whose public key checks its signatures', async () => {
    const pair = await generateDkimKeyPair();
    expect(pair.privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PRIVATE KEY-----\n$/);
    const fromPem = await importDkimKey(pair.privateKeyPem);
    const fromDer = await importDkimKey(pair.privateKeyPkcs8);
    expect(fromPem.extractable).toBe(false);
    expect((fromPem.algorithm as unknown as { modulusLength: number }).modulusLength).toBe(2048);
    const spki = Uint8Array.from(atob(pair.publicKeyBase64), (c) => c.charCodeAt(0));
    const publicKey = await crypto.subtle.importKey('spki', spki, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['verify']);
    const data = new TextEncoder().encode('signed');
    for (const key of [fromPem, fromDer]) {
      const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, data);
      expect(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', publicKey, signature, data)).toBe(true);
    }
  });

  it('refuses a PKCS#1 key, text that is no key and a key that is too short', async () => {
    await expect(importDkimKey('-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----')).rejects.toThrow(/PKCS#1/);
    await expect(importDkimKey('not a key')).rejects.toThrow(/PKCS#8/);
    const short = (await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 768, publicExponent: new Uint8Array([1, 0, 1]) },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair;
    const der = new Uint8Array((await crypto.subtle.exportKey('pkcs8', short.privateKey)) as ArrayBuffer);
    await expect(importDkimKey(der)).rejects.toThrow(/768 bits/);
  });

  it('renders the record and splits it into TXT strings of at most 255 bytes that join back', async () => {
    const { publicKeyBase64 } = await generateDkimKeyPair();
    const value = dkimRecordValue(publicKeyBase64);
    expect(value).toBe(`v=DKIM1; k=rsa; p=${publicKeyBase64}`);
    expect(dkimRecordName('relay1', 'acme.test')).toBe('relay1._domainkey.acme.test');
    const strings = splitTxt(value);
    expect(strings).toHaveLength(2);
    expect(strings[0]).toHaveLength(255);
    expect(strings.join('')).toBe(value);
    expect(quotedTxt(value)).toBe(`"${strings[0]}" "${strings[1]}"`);
  });

  it('counts bytes, not characters, never splits a character, and quotes what needs it', () => {
    const strings = splitTxt('é'.repeat(200));
    expect(strings.map((s) => new TextEncoder().encode(s).length)).toEqual([254, 146]);
    expect(strings.join('')).toBe('é'.repeat(200));
    expect(splitTxt('')).toEqual(['']);
    expect(splitTxt('x'.repeat(510))).toEqual(['x'.repeat(255), 'x'.repeat(255)]);
    expect(quotedTxt('a "b" \\c')).toBe('"a \\"b\\" \\\\c"');
  });
});
