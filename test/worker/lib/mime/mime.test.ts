// Building messages: every line short and 7-bit, UTF-8 headers encoded and readable back, alternatives,
// attachments, a traceable Message-ID, Return-Path, and never a Bcc header. Parsed back with postal-mime.
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { buildEmail, type EmailContent } from '../../../../src/lib/mime/build';
import { encodeWords, isSevenBit, quotedPrintable } from '../../../../src/lib/mime/encode';
import { htmlToText } from '../../../../src/lib/mime/html-to-text';
import { messageIdFor, parseMessageId } from '../../../../src/lib/mime/message-id';
import { rawHeaders } from '../../../support/transport-helpers';

const base: EmailContent = {
  messageId: messageIdFor(42, 'acme.test'),
  from: { address: 'news@acme.test', name: 'Acme News' },
  to: 'ada@example.test',
  subject: 'Hello',
  body: '<p>Hello</p>',
  html: true,
};

function expectWellFormedLines(raw: string) {
  for (const line of raw.split('\r\n')) {
    expect(line.length).toBeLessThanOrEqual(998);
    expect(line).toMatch(/^[\x20-\x7e\t]*$/);
  }
  expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
}

/** The message with its Date and its (random) boundaries replaced by fixed text, to compare whole messages. */
function withoutDateAndBoundaries(raw: string): string {
  let text = raw.replace(/^Date: .*$/m, 'Date: (date)');
  [...raw.matchAll(/boundary=([0-9a-z]+)/g)].forEach(([, boundary], i) => {
    text = text.split(boundary).join(`(boundary ${i + 1})`);
  });
  return text;
}

describe('MIME building', () => {
  it('encodes a long UTF-8 subject and display name in RFC 2047 words that read back exactly', async () => {
    const subject = `Привет, ${'мир 🌍 '.repeat(30)}— déjà vu`;
    const raw = buildEmail({ ...base, subject, from: { address: 'news@acme.test', name: 'Zoë «Acme» Ünïcode' } });
    expectWellFormedLines(raw);
    const subjectHeader = rawHeaders(raw).find(([k]) => k === 'subject')![1];
    for (const word of subjectHeader.split(' ')) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/);
      expect(word.length).toBeLessThanOrEqual(75);
    }
    const email = await PostalMime.parse(raw);
    expect(email.subject).toBe(subject);
    expect(email.from?.name).toBe('Zoë «Acme» Ünïcode');
    expect((email.from as { address: string }).address).toBe('news@acme.test');
  });

  it('keeps a plain ASCII subject readable and quotes an ASCII name with specials', async () => {
    const raw = buildEmail({ ...base, subject: 'Your invoice #12', from: { address: 'billing@acme.test', name: 'Acme "Billing", Inc.' } });
    const headers = Object.fromEntries(rawHeaders(raw));
    expect(headers.subject).toBe('Your invoice #12');
    expect(headers.from).toBe('"Acme \\"Billing\\", Inc." <billing@acme.test>');
    const email = await PostalMime.parse(raw);
    expect(email.from?.name).toBe('Acme "Billing", Inc.');
  });

  it('never writes a Bcc header, and drops headers the builder owns from extra headers', async () => {
    const raw = buildEmail({
      ...base,
      headers: {
        Bcc: 'secret@example.test',
        bcc: 'other@example.test',
        From: 'evil@example.test',
        'List-Unsubscribe': '<https://acme.test/u/1>',
        'X-Bad\r\nName': 'x',
        'X-Campaign': 'spring\r\nBcc: injected@example.test',
      },
    });
    const headers = rawHeaders(raw);
    expect(headers.map(([k]) => k)).not.toContain('bcc');
    expect(raw).not.toMatch(/secret@example\.test|other@example\.test|evil@example\.test/);
    expect(raw).not.toMatch(/^Bcc:/im);
    expect(Object.fromEntries(headers)['list-unsubscribe']).toBe('<https://acme.test/u/1>');
    expect(Object.fromEntries(headers)['x-campaign']).toBe('spring Bcc: injected@example.test');
    const email = await PostalMime.parse(raw);
    expect(email.bcc ?? []).toEqual([]);
  });

  it('writes Cc and Reply-To as mailbox lists folded after a comma, readable back, and never a Bcc', async () => {
    const cc = ['first@example.test', 'second.with.a.longer.local.part@example.test', 'third@example.test', 'fourth@example.test'];
    const raw = buildEmail({ ...base, cc, replyTo: 'support@acme.test', headers: { 'Reply-To': 'evil@example.test', Cc: 'evil2@example.test' } });
    expectWellFormedLines(raw);
    const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
    // Folded after a comma so no line grows past 78 characters; unfolded, the list reads as given.
    expect(head).toContain('Cc: <first@example.test>, <second.with.a.longer.local.part@example.test>,\r\n <third@example.test>, <fourth@example.test>\r\n');
    for (const line of head.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    const headers = rawHeaders(raw);
    expect(headers.filter(([k]) => k === 'reply-to')).toEqual([['reply-to', '<support@acme.test>']]);
    expect(headers.filter(([k]) => k === 'cc')).toHaveLength(1);
    expect(headers.map(([k]) => k)).not.toContain('bcc');
    expect(raw).not.toMatch(/evil/);
    const email = await PostalMime.parse(raw);
    expect(email.cc?.map((a) => (a as { address: string }).address)).toEqual(cc);
    expect(email.replyTo?.map((a) => (a as { address: string }).address)).toEqual(['support@acme.test']);
    expect(email.bcc ?? []).toEqual([]);
  });

  it('builds a message without cc or reply-to exactly as before they existed', () => {
    // What the builder wrote before cc and reply-to were added (its own output then), Date and boundaries aside: the
    // broadcast path must not change by a byte.
    const before =
      'Date: (date)\r\nFrom: =?UTF-8?B?QWNtZSBDYWbDqQ==?= <news@acme.test>\r\nTo: <ada@example.test>\r\nMessage-ID: <relay-42@acme.test>\r\nSubject: Your order\r\nMIME-Version: 1.0\r\nReturn-Path: <bounces@acme.test>\r\nList-Id: "Acme: News" <subscription-1.acme.localhost>\r\nList-Unsubscribe: <https://acme.test/u/42>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\nContent-Type: multipart/mixed; boundary=(boundary 1)\r\n\r\n--(boundary 1)\r\nContent-Type: multipart/alternative; boundary=(boundary 2)\r\n\r\n--(boundary 2)\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\nThanks, Ada.\r\n\r\n--(boundary 2)\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Transfer-Encoding: 7bit\r\n\r\n<p>Thanks, Ada.</p>\r\n\r\n--(boundary 2)--\r\n--(boundary 1)\r\nContent-Type: text/plain; name="a.txt"\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename="a.txt"\r\n\r\naGVsbG8=\r\n--(boundary 1)--';
    const content: EmailContent = {
      messageId: 'relay-42@acme.test',
      from: { address: 'news@acme.test', name: 'Acme Café' },
      to: 'ada@example.test',
      subject: 'Your order',
      body: '<p>Thanks, Ada.</p>',
      html: true,
      returnPath: 'bounces@acme.test',
      headers: {
        'List-Id': '"Acme: News" <subscription-1.acme.localhost>',
        'List-Unsubscribe': '<https://acme.test/u/42>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      attachments: [{ filename: 'a.txt', contentType: 'text/plain', content: new TextEncoder().encode('hello') }],
    };
    for (const absent of [{}, { cc: [], replyTo: null }, { cc: undefined, replyTo: '' }]) {
      expect(withoutDateAndBoundaries(buildEmail({ ...content, ...absent }))).toBe(before);
    }
  });

  it('sets a traceable Message-ID and the Return-Path', async () => {
    const raw = buildEmail({ ...base, returnPath: 'bounces@acme.test' });
    const headers = Object.fromEntries(rawHeaders(raw));
    expect(headers['message-id']).toBe('<relay-42@acme.test>');
    expect(headers['return-path']).toBe('<bounces@acme.test>');
    expect(parseMessageId(headers['message-id'])).toEqual({ id: 42, domain: 'acme.test' });
    expect(parseMessageId('<something@else.test>')).toBeNull();
    const email = await PostalMime.parse(raw);
    expect(email.messageId).toBe('<relay-42@acme.test>');
    expect(email.returnPath).toBe('bounces@acme.test');
  });

  it('sends html with a plain-text alternative derived from it when none is given', async () => {
    const html =
      '<html><head><style>p{color:red}</style></head><body><h1>Spring sale</h1><p>Up to <b>50%</b> off &amp; free shipping.</p><p><a href="https://acme.test/sale">See the offers</a></p><ul><li>Shoes</li><li>Hats</li></ul></body></html>';
    const raw = buildEmail({ ...base, body: html });
    expect(raw).toMatch(/Content-Type: multipart\/alternative; boundary=/);
    const email = await PostalMime.parse(raw);
    // mimetext leaves a blank line before the closing boundary: compare without trailing line ends.
    expect(email.html?.trimEnd()).toBe(html);
    expect(email.text).toContain('Spring sale');
    expect(email.text).toContain('Up to 50% off & free shipping.');
    expect(email.text).toContain('See the offers (https://acme.test/sale)');
    expect(email.text).toMatch(/- Shoes\n- Hats/);
    expect(email.text).not.toContain('color:red');
    expect(email.text).not.toContain('<');
  });

  it('uses the given plain text when there is one, and a text-only message has no html part', async () => {
    const withPlain = await PostalMime.parse(buildEmail({ ...base, bodyPlain: 'Written by hand' }));
    expect(withPlain.text?.trim()).toBe('Written by hand');
    const textOnly = buildEmail({ ...base, html: false, body: 'Just text\nTwo lines' });
    expect(textOnly).not.toMatch(/multipart|text\/html/);
    const parsed = await PostalMime.parse(textOnly);
    expect(parsed.text?.trim()).toBe('Just text\nTwo lines');
    expect(parsed.html).toBeUndefined();
  });

  it('encodes non-ASCII and very long lines as quoted-printable that decodes to the same text', async () => {
    const text = `Grüße aus Köln — ${'x'.repeat(1500)}\nZeile 2 mit Leerzeichen am Ende   \n=Gleichheitszeichen=`;
    const raw = buildEmail({ ...base, html: false, body: text });
    expectWellFormedLines(raw);
    expect(raw).toContain('Content-Transfer-Encoding: quoted-printable');
    for (const line of raw.slice(raw.indexOf('\r\n\r\n')).split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
    const email = await PostalMime.parse(raw);
    expect(email.text?.replace(/\r\n/g, '\n').trimEnd()).toBe(text.trimEnd());
  });

  it('calls 7bit only ASCII without NUL', () => {
    expect(isSevenBit('Hello\r\n<a href="https://x.test/?a=1">x</a>\t~\u007f')).toBe(true);
    for (const text of ['a\u0000b', 'café', '\u0080', 'smile 😀', 'lone \ud800 surrogate', '\u00ff']) expect(isSevenBit(text)).toBe(false);
  });

  it('quoted-printable keeps each line within 76 characters without splitting an escape', () => {
    const encoded = quotedPrintable('é'.repeat(100));
    for (const line of encoded.split('\r\n')) {
      expect(line.length).toBeLessThanOrEqual(76);
      expect(line).toMatch(/^(=[0-9A-F]{2})*=?$/);
    }
  });

  it('quoted-printable of long ASCII lines (tracked html on one line) escapes "=" and a trailing blank and round-trips', async () => {
    const line = Array.from({ length: 60 }, (_, i) => `<a href="https://x.example/t/c/a${'b'.repeat(i % 7)}?u=${i}&amp;v==">${i}</a>`).join('');
    for (const text of [line, `${line} `, `${line}\t`, `==${line}=`]) {
      const encoded = quotedPrintable(text);
      for (const out of encoded.split('\r\n')) {
        expect(out.length).toBeLessThanOrEqual(76);
        // Every "=" starts an escape or is the soft break at the end.
        expect(out.replace(/=[0-9A-F]{2}/g, '')).toMatch(/^[^=]*=?$/);
      }
      // RFC 2045 6.7 decoding: soft breaks removed, then each =XX is its byte (all ASCII here).
      const decoded = encoded.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      expect(decoded).toBe(text);
      const raw = buildEmail({ ...base, html: false, body: text });
      expect(raw).toContain('Content-Transfer-Encoding: quoted-printable');
      expect((await PostalMime.parse(raw)).text?.trimEnd()).toBe(text.trimEnd());
    }
  });

  it('splits encoded words on whole characters', () => {
    const words = encodeWords('😀'.repeat(40)).split('\r\n ');
    expect(words.length).toBeGreaterThan(1);
    for (const w of words) {
      const bytes = Uint8Array.from(atob(w.slice(10, -2)), (c) => c.charCodeAt(0));
      expect(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)).toMatch(/^(😀)+$/u);
    }
  });

  it('attaches files byte for byte, with UTF-8 names', async () => {
    const binary = new Uint8Array(3000).map((_, i) => (i * 7) % 256);
    const raw = buildEmail({
      ...base,
      attachments: [
        { filename: 'report.pdf', contentType: 'application/pdf', content: binary },
        { filename: 'Übersicht "Q1".csv', contentType: 'text/csv', content: new TextEncoder().encode('a,b\n1,2\n') },
        { filename: 'weird.bin', contentType: 'not a type\r\nX-Injected: 1', content: new Uint8Array([1, 2, 3]) },
      ],
    });
    expectWellFormedLines(raw);
    expect(raw).not.toMatch(/^X-Injected/m);
    const email = await PostalMime.parse(raw);
    expect(email.html?.trimEnd()).toBe('<p>Hello</p>');
    expect(email.text?.trim()).toBe('Hello');
    expect(email.attachments.map((a) => [a.filename, a.mimeType])).toEqual([
      ['report.pdf', 'application/pdf'],
      ['Übersicht _Q1_.csv', 'text/csv'],
      ['weird.bin', 'application/octet-stream'],
    ]);
    expect(new Uint8Array(email.attachments[0].content as ArrayBuffer)).toEqual(binary);
    expect(new TextDecoder().decode(email.attachments[1].content as ArrayBuffer)).toBe('a,b\n1,2\n');
  });

  it('turns html into readable text', () => {
    expect(htmlToText('<p>a&nbsp;b &lt;c&gt; &#233;&#x20AC;</p><br><div>line\n   two</div>')).toBe('a b <c> é€\n\nline two');
    expect(htmlToText('<a href="mailto:x@y.test">x@y.test</a> <a href="javascript:alert(1)">click</a>')).toBe('x@y.test click');
    expect(htmlToText('<!-- hidden --><script>var a=1</script><table><tr><td>A</td><td>B</td></tr></table>')).toBe('A B');
  });
});
