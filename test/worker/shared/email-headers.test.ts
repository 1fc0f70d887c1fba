import { describe, expect, it } from 'vitest';
import { HEADER_LIMITS, headerErrors, isAllowedHeaderName } from '../../../src/shared/email-headers';

describe('the headers a send API caller may set (allow-list)', () => {
  it('lets X- headers and the threading headers through, in any case', () => {
    expect(
      headerErrors({
        'X-Order-Id': '12345',
        'x-campaign': 'spring sale: 50 % off',
        'X-Note': 'Grüße aus Köln',
        'X-Tabbed': 'a\tb',
        'In-Reply-To': '<ticket-77@help.acme.test>',
        references: '<a@acme.test> <b.c@acme.test>\t<d@e.test><f@g.test>',
      }),
    ).toEqual([]);
    expect(headerErrors({})).toEqual([]);
    for (const name of ['X-A', 'x-order-id', 'In-Reply-To', 'REFERENCES']) expect(isAllowedHeaderName(name), name).toBe(true);
  });

  it('refuses every header the platform or the mail system owns', () => {
    const owned = [
      'From',
      'To',
      'cc',
      'BCC',
      'Subject',
      'Date',
      'Message-ID',
      'Return-Path',
      'MIME-Version',
      'Content-Type',
      'Content-Transfer-Encoding',
      'List-Unsubscribe',
      'List-Unsubscribe-Post',
      'List-Id',
      'DKIM-Signature',
      'Received',
      'Reply-To',
      'Sender',
      'Precedence',
      'Feedback-ID',
      'X-',
    ];
    for (const name of owned) {
      expect(isAllowedHeaderName(name), name).toBe(false);
      const errors = headerErrors({ [name]: 'value' });
      expect(errors, name).toHaveLength(1);
      expect(errors[0]).toContain(`Header "${name}" cannot be set`);
    }
  });

  it('refuses X- headers that are ours, a provider relay reads as instructions, or a filter writes', () => {
    for (const name of [
      'X-SMTPAPI',
      'x-smtpapi',
      'X-MC-Tags',
      'X-Mailgun-Variables',
      'X-SES-CONFIGURATION-SET',
      'X-PM-Tag',
      'X-MSYS-API',
      'X-Mailjet-Campaign',
      'X-Relay-Id',
      'X-Spam-Status',
      'X-Virus-Scanned',
      'X-MS-Exchange-Organization-SCL',
    ]) {
      expect(isAllowedHeaderName(name), name).toBe(false);
      expect(headerErrors({ [name]: 'x' })[0], name).toMatch(
        /cannot be set: only X- headers \(not .*X-SMTPAPI, X-MC-\*.*X-Spam-\*.*\), In-Reply-To and References are allowed/,
      );
    }
  });

  it('refuses header injection: line breaks and other controls in a value, odd characters in a name', () => {
    const injected = headerErrors({
      'X-One': 'ok\r\nBcc: victim@example.test',
      'X-Two': 'line\nbreak',
      'X-Three': 'bare\rreturn',
      'X-Four': 'nul\u0000byte',
      'X-Five': 'next line\u0085here',
      'X-Six': 'separator\u2028here',
    });
    expect(injected).toEqual(['One', 'Two', 'Three', 'Four', 'Five', 'Six'].map((n) => `Header "X-${n}" must not contain line breaks or control characters.`));
    for (const name of ['X-Bad Name', 'X-Colon:', 'X-Line\r\nBcc', 'X_Under', '-X-Leading', 'X-Ünicode', '']) {
      expect(isAllowedHeaderName(name), name).toBe(false);
      expect(headerErrors({ [name]: 'v' })[0], name).toMatch(/^Header name ".*" may only have letters, digits and hyphens\.$/);
    }
    // A name's controls are shown escaped in the message, not written raw.
    expect(headerErrors({ 'X-Line\r\nBcc': 'v' })[0]).toBe('Header name "X-Line\\r\\nBcc" may only have letters, digits and hyphens.');
  });

  it('keeps to the limits: 20 headers, names of 100 characters, values of 1000', () => {
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`X-H${i}`, 'v']));
    expect(headerErrors(twenty)).toEqual([]);
    expect(headerErrors({ ...twenty, 'X-One-More': 'v' })).toEqual(['At most 20 headers can be set; 21 were given.']);

    const longest = `X-${'n'.repeat(HEADER_LIMITS.nameLength - 2)}`;
    expect(headerErrors({ [longest]: 'v' })).toEqual([]);
    const tooLong = headerErrors({ [`${longest}n`]: 'v' });
    expect(tooLong).toHaveLength(1);
    expect(tooLong[0]).toMatch(/^Header name "X-n+…" is longer than 100 characters\.$/);

    expect(headerErrors({ 'X-Big': 'v'.repeat(1000) })).toEqual([]);
    expect(headerErrors({ 'X-Big': 'v'.repeat(1001) })).toEqual(['Header "X-Big" is longer than 1000 characters.']);
  });

  it('refuses empty values, values that are not text, a name given twice, and threading headers that are not message ids', () => {
    expect(headerErrors({ 'X-Empty': '', 'X-Blank': '  ' })).toEqual(['Header "X-Empty" has no value.', 'Header "X-Blank" has no value.']);
    expect(headerErrors({ 'X-Number': 5 as unknown as string })).toEqual(['Header "X-Number" must be text.']);
    expect(headerErrors({ 'X-Tag': 'a', 'x-tag': 'b' })).toEqual(['Header "x-tag" is given twice (header names ignore case).']);
    for (const value of ['ticket-77', '<no-at-sign>', '<a@b> and text', '<a b@c>', '<a@@b>', '<ä@b.test>', '<a@b>c<d@e>', '<>']) {
      expect(headerErrors({ 'In-Reply-To': value }), value).toEqual([
        'Header "In-Reply-To" must be one or more message ids, each as <id@domain>, separated by spaces.',
      ]);
    }
  });

  it('reports each bad header on its own', () => {
    const errors = headerErrors({ From: 'x@y.test', 'X-Fine': 'ok', 'X-Bad': 'a\nb', References: 'nope' });
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^Header "From" cannot be set/);
    expect(errors[1]).toBe('Header "X-Bad" must not contain line breaks or control characters.');
    expect(errors[2]).toMatch(/^Header "References" must be one or more message ids/);
  });
});
