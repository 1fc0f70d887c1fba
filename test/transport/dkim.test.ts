// DKIM signatures (src/lib/dkim) on messages built by our MIME builder, signed in workerd, sent over SMTP to a real
// smtp-server and verified as caught by a maintained verifier (mailauth, in Node: test/support/dkim-node.ts) with DNS
// answered from this test's key: the short letter, a 60 KB newsletter with a UTF-8 subject, an attachment and a line
// starting with a dot pass; a tampered header or body fails; what relays do (strip X-SMTPAPI, add Received, refold)
// does not break it. And the same key, message and time give the same header in workerd as in Node.
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDkimKeyPair, importDkimKey } from '../../src/lib/dkim/keys';
import { dkimName as dkimRecordName } from '../../src/lib/dns/record-names';
import { dkimRecordValue } from '../../src/lib/dns/records-to-publish';
import { splitTxtValue as splitTxt } from '../../src/lib/dns/txt-strings';
import { type DkimSigner, dkimSignatureHeader, signEmail, splitMessage } from '../../src/lib/dkim/sign';
import { buildEmail, type EmailContent } from '../../src/lib/mime/build';
import { messageIdFor } from '../../src/lib/mime/message-id';
import { SmtpConnection } from '../../src/lib/smtp/connection';
import { sendBatch } from '../../src/lib/smtp/send';
import { FIXTURE_MESSAGE, FIXTURE_PRIVATE_KEY, FIXTURE_PUBLIC_KEY, FIXTURE_SIGNATURE, FIXTURE_SIGNER, FIXTURE_TIMESTAMP } from '../support/dkim-fixture';
import type { DkimVerdict } from '../support/transport-context';
import { NOT_SET_UP, rawHeaders, received, S, smtpOptions, uniqueAddress } from '../support/transport-helpers';

const DOMAIN = 'acme.test';
const SELECTOR = 'relay1';
let signer: DkimSigner;
let records: Record<string, string[]>;
let nextId = 7000;

async function verify(raw: string, dns: Record<string, string[]> = records): Promise<DkimVerdict[]> {
  const res = await fetch(`${S.control}/dkim/verify`, { method: 'POST', body: JSON.stringify({ raw, records: dns }) });
  expect(res.status).toBe(200);
  return res.json();
}

/** Sends the message over SMTP as the transport does (dot-stuffed by sendBatch) and returns it as the server caught it. */
async function deliver(raw: string, to: string): Promise<string> {
  const conn = await SmtpConnection.open(smtpOptions('pipe'));
  try {
    const { results } = await sendBatch(conn, [{ envelope: { from: 'bounces@acme.test', to: [to] }, data: raw }]);
    expect(results[0]?.ok).toBe(true);
  } finally {
    await conn.quit();
  }
  const [mail] = await received({ to });
  return mail.raw;
}

function content(to: string, extra: Partial<EmailContent>): EmailContent {
  return { messageId: messageIdFor(++nextId, DOMAIN), from: { address: 'news@acme.test', name: 'Acme News' }, to, subject: 'Hello', body: 'Hi', ...extra };
}

/** About 60 KB of newsletter html: indented rows (whitespace the relaxed body collapses), tracked links, UTF-8 text. */
function newsletterHtml(): string {
  let html = '<html>\n  <body>\n    <h1>Neuigkeiten für dich</h1>\n    <table>\n';
  for (let i = 0; html.length < 60_000; i++) {
    html += `      <tr>\n        <td style="padding: 8px  16px;">\tArtikel ${i}: <a href="https://acme.localhost/c/m42.k1.${i}abcdef">Weiterlesen über Größe ${i} →</a>  </td>\n      </tr>\n`;
  }
  return `${html}    </table>\n  </body>\n</html>\n`;
}

const headerNames = (raw: string) => rawHeaders(raw).map(([name]) => name);
const signedList = (raw: string) =>
  /h=([^;]+);/
    .exec(raw.replace(/\r\n[ \t]/g, ' '))![1]
    .replace(/\s+/g, '')
    .split(':');

describe.skipIf(NOT_SET_UP)('DKIM signatures verified by mailauth', () => {
  beforeAll(async () => {
    const pair = await generateDkimKeyPair();
    signer = { domain: DOMAIN, selector: SELECTOR, key: await importDkimKey(pair.privateKeyPkcs8) };
    records = { [dkimRecordName(SELECTOR, DOMAIN)]: splitTxt(dkimRecordValue(pair.publicKeyBase64)) };
  });

  const cases: [string, (to: string) => EmailContent][] = [
    ['a short letter', (to) => content(to, { subject: 'See you tomorrow', body: 'Hi Ada,\n\nsee you tomorrow at ten.\n\nBen' })],
    [
      'a 60 KB html newsletter with a UTF-8 subject and list headers',
      (to) =>
        content(to, {
          subject: 'Neuigkeiten für Ada — Ausgabe 7 🌍',
          body: newsletterHtml(),
          html: true,
          headers: {
            'List-Unsubscribe': '<https://acme.localhost/u/abc>, <mailto:unsubscribe@acme.test?subject=abc>',
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            'List-Id': 'Newsletter <newsletter.acme.test>',
            'Feedback-ID': 'b42:acme:broadcast:relay',
            'X-SMTPAPI': '{"category":["newsletter"]}',
          },
        }),
    ],
    [
      'an attachment',
      (to) =>
        content(to, {
          subject: 'Your invoice',
          body: '<p>Your invoice is attached.</p>',
          html: true,
          attachments: [
            { filename: 'Rechnung März.pdf', contentType: 'application/pdf', content: Uint8Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 256) },
          ],
        }),
    ],
    ['a body line that starts with a dot', (to) => content(to, { subject: 'Dots', body: '.hidden\n..two dots\n.\nend' })],
  ];
  /** What the caught message must show: the dots as written (dot-stuffed on the wire, un-stuffed by the server). */
  const shows: Record<string, string> = { 'a body line that starts with a dot': '\r\n\r\n.hidden\r\n..two dots\r\n.\r\nend' };

  for (const [label, make] of cases) {
    it(`passes for ${label}, as caught after SMTP`, async () => {
      const to = uniqueAddress('dkim');
      const built = buildEmail(make(to));
      const caught = await deliver(await signEmail(signer, built), to);

      expect(headerNames(caught)[0]).toBe('dkim-signature');
      if (shows[label]) expect(caught).toContain(shows[label]);
      const verdicts = await verify(caught);
      expect(verdicts).toHaveLength(1);
      expect(verdicts[0]).toMatchObject({ result: 'pass', domain: DOMAIN, selector: SELECTOR });
    });
  }

  it('signs the list headers, oversigns From and Subject, and leaves relay headers out', async () => {
    const [, make] = cases[1];
    const signed = await signEmail(signer, buildEmail(make(uniqueAddress('dkim'))));
    const names = signedList(signed);
    for (const name of [
      'from',
      'to',
      'subject',
      'date',
      'message-id',
      'mime-version',
      'content-type',
      'list-unsubscribe',
      'list-unsubscribe-post',
      'list-id',
      'feedback-id',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.filter((n) => n === 'from')).toHaveLength(2);
    expect(names.filter((n) => n === 'subject')).toHaveLength(2);
    expect(names).not.toContain('x-smtpapi');
    expect(names).not.toContain('return-path');
    for (const line of signed.slice(0, signed.indexOf('\r\nDate:')).split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
  });

  it('fails when a signed header or the body is changed after signing, or a second From or Subject is added', async () => {
    const to = uniqueAddress('dkim');
    const caught = await deliver(await signEmail(signer, buildEmail(cases[1][1](to))), to);
    expect((await verify(caught))[0].result).toBe('pass');

    const tampered = {
      'a changed subject': caught.replace(/^Subject: .*$/m, 'Subject: =?UTF-8?B?R2V3aW5uc3BpZWw=?='),
      'a changed List-Unsubscribe': caught.replace('<https://acme.localhost/u/abc>', '<https://evil.test/u/abc>'),
      'a changed body': caught.replace('Artikel 17:', 'Artikel 71:'),
      'an added From': caught.replace(/^From: /m, 'From: "Bank" <alerts@bank.test>\r\nFrom: '),
      'an added Subject': caught.replace(/^Subject: /m, 'Subject: Urgent\r\nSubject: '),
    };
    for (const [what, raw] of Object.entries(tampered)) {
      expect(raw, what).not.toBe(caught);
      const [verdict] = await verify(raw);
      expect(verdict.result, `${what}: ${verdict.info}`).toBe('fail');
    }
    // And the body hash is what tells a changed body from a changed header.
    expect((await verify(tampered['a changed body']))[0].comment).toMatch(/body hash/);
  });

  it('still passes after what relays do: X-SMTPAPI stripped, a Received header added, whitespace refolded', async () => {
    const to = uniqueAddress('dkim');
    const caught = await deliver(await signEmail(signer, buildEmail(cases[1][1](to))), to);
    const relayed = `Received: from mailer.relay.test by mx.example.test; Mon, 21 Sep 2026 10:13:20 +0000\r\n${caught}`
      .replace(/^X-SMTPAPI: .*\r\n/m, '')
      .replace(/^List-Id: /m, 'List-Id:   ')
      .replace(/^Date: /m, 'Date:\r\n\t');
    expect(relayed).not.toMatch(/X-SMTPAPI/);
    expect((await verify(relayed))[0].result).toBe('pass');
  });

  it('signs a header that occurs twice bottom-up (RFC 6376 5.4.2): passes as signed, fails with the two swapped', async () => {
    const to = uniqueAddress('dkim');
    const built = buildEmail(content(to, { subject: 'Two', headers: { 'List-Id': 'First <first.acme.test>' } }));
    const twice = built.replace(/^List-Id: (.*)$/m, 'List-Id: $1\r\nList-Id: Second <second.acme.test>');
    const signed = await signEmail(signer, twice);
    expect(signedList(signed).filter((n) => n === 'list-id')).toHaveLength(2);
    expect((await verify(signed))[0].result).toBe('pass');
    const swapped = signed.replace('First <first', '(x)').replace('Second <second', 'First <first').replace('(x)', 'Second <second');
    expect((await verify(swapped))[0].result).toBe('fail');
  });

  it('passes with an international address in To (a UTF-8 header, hashed as the UTF-8 the connection writes)', async () => {
    const signed = await signEmail(signer, buildEmail(content('jörg@bücher.example', { subject: 'Grüße' })));
    expect(signed).toMatch(/^To: <jörg@bücher\.example>\r$/m);
    expect((await verify(signed))[0].result).toBe('pass');
    expect((await verify(signed.replace('jörg@', 'jürg@')))[0].result).toBe('fail');
  });

  it('does not pass with another key in DNS', async () => {
    const other = await generateDkimKeyPair();
    const signed = await signEmail(signer, buildEmail(content(uniqueAddress('dkim'), {})));
    const [verdict] = await verify(signed, { [dkimRecordName(SELECTOR, DOMAIN)]: splitTxt(dkimRecordValue(other.publicKeyBase64)) });
    expect(verdict.result).toBe('fail');
  });

  it('makes the same header in workerd as in Node for the fixed key, message and time, and it verifies', async () => {
    const nodeHeader = await (await fetch(`${S.control}/dkim/fixture-signature`)).json();
    const key = await importDkimKey(FIXTURE_PRIVATE_KEY);
    const workerdHeader = await dkimSignatureHeader({ ...FIXTURE_SIGNER, key }, splitMessage(FIXTURE_MESSAGE), { timestamp: FIXTURE_TIMESTAMP });
    expect(workerdHeader).toBe(nodeHeader);
    expect(workerdHeader).toBe(FIXTURE_SIGNATURE);
    const dns = { [dkimRecordName(FIXTURE_SIGNER.selector, FIXTURE_SIGNER.domain)]: splitTxt(dkimRecordValue(FIXTURE_PUBLIC_KEY)) };
    expect((await verify(workerdHeader + FIXTURE_MESSAGE, dns))[0].result).toBe('pass');
  });
});
