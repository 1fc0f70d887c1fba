// DKIM signing in the sending path (issue 37), end to end against a real SMTP server: tracked broadcasts (the short
// letter, a 60 KB newsletter, a UTF-8 subject, attachments, a line starting with a dot), a test message and a
// transactional message (POST /api/v1/send) from a sender on a verified domain are caught signed with that domain's
// key, and mailauth (test/support/dkim-node.ts, through the control endpoint) says `pass`; a tampered header or body
// `fail`. A sender on a subdomain is signed by the verified parent; with the integration's switch off, on an
// unverified domain, or on a domain another organisation verified, the mail goes unsigned.
import { applyD1Migrations, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import type { Env } from '../../src/env';
import { encryptSecret } from '../../src/lib/crypto/secret-box';
import { generateDkimKeyPair } from '../../src/lib/dkim/keys';
import { dkimName as dkimRecordName } from '../../src/lib/dns/record-names';
import { dkimRecordValue } from '../../src/lib/dns/records-to-publish';
import { splitTxtValue as splitTxt } from '../../src/lib/dns/txt-strings';
import type { BroadcastRunner } from '../../src/modules/broadcast/runner';
import { currentBroadcast } from '../../src/modules/broadcast/run-store';
import { sealSecret } from '../../src/modules/integration/account';
import { orgLedgerDb } from '../../src/modules/ledger/registry';
import { deliverMessage } from '../../src/modules/message/send-message';
import { SendChannels } from '../../src/modules/sending/channels';
import { deliverBatch } from '../../src/modules/sending/deliver-batch';
import type { SendBatchBody } from '../../src/modules/sending/send-queue';
import type { DkimVerdict, ReceivedMail } from '../support/transport-context';
import { NOT_SET_UP, rawHeaders, received, S, uniqueAddress } from '../support/transport-helpers';
import { call, signIn } from '../worker/helpers';
import { createOrg } from '../worker/helpers';

const E = env as unknown as Env;
let seq = 0;

const one = (sql: string, ...args: unknown[]) =>
  E.DB.prepare(sql)
    .bind(...args)
    .first<Record<string, unknown>>();
const insert = async (sql: string, ...args: unknown[]) => Number((await one(`${sql} RETURNING id`, ...args))!.id);

interface Org {
  orgId: number;
  host: string;
  integrationId: number;
  /** The organisation's own domain name for this test (unique: a verified name belongs to one organisation). */
  domain: string;
}

/** An organisation with an SMTP integration to the catcher (`dkimSigning` its switch). */
async function newOrg(dkimSigning = true): Promise<Org> {
  const n = ++seq;
  const host = `dkim${n}x${Date.now().toString(36)}`;
  const { orgId } = await createOrg(host);
  const details = JSON.stringify({ server: '127.0.0.1', port: S.smtp.open, ssl: false, tls: false, domain: 'mail.relay.test', return_path: null, user: null });
  const integrationId = await insert(
    "INSERT INTO integrations (org_id, name, type, details, secret, dkim_signing) VALUES (?, 'SMTP', 'smtp', ?, ?, ?)",
    orgId,
    details,
    await sealSecret(E, 'smtp', 'unused'),
    dkimSigning ? 1 : 0,
  );
  return { orgId, host, integrationId, domain: `${host}.example` };
}

/** A sending domain of the organisation with a fresh key, verified unless told; answers its DNS record for mailauth. */
async function addDomain(o: Pick<Org, 'orgId'>, domain: string, verified = true): Promise<Record<string, string[]>> {
  const pair = await generateDkimKeyPair();
  const selector = 'relay1';
  await E.DB.prepare(
    'INSERT INTO sending_domains (org_id, domain, verification_token, verified_at, dkim_selector, dkim_public_key, dkim_private_key) VALUES (?, ?, ?, ?, ?, ?, ?)',
  )
    .bind(
      o.orgId,
      domain,
      `token-${domain}`,
      verified ? new Date().toISOString() : null,
      selector,
      pair.publicKeyBase64,
      await encryptSecret(E.SECRETS_KEY, pair.privateKeyPem),
    )
    .run();
  return { [dkimRecordName(selector, domain)]: splitTxt(dkimRecordValue(pair.publicKeyBase64)) };
}

/** The organisation's sender of `address`, made on first use. */
async function addSender(o: Org, address: string): Promise<number> {
  const found = await one("SELECT id FROM senders WHERE org_id = ? AND type = 'email' AND value = ?", o.orgId, address);
  if (found) return Number(found.id);
  return insert("INSERT INTO senders (org_id, integration_id, type, value, name) VALUES (?, ?, 'email', ?, 'News')", o.orgId, o.integrationId, address);
}

interface Letter {
  subject: string;
  body: string;
  /** Files of the template, put in R2. */
  files?: { name: string; type: string; content: Uint8Array }[];
}

/** A tracked broadcast (opens and clicks, List-Unsubscribe) of `letter` from `from` to new contacts, run to the end. */
async function runBroadcast(o: Org, from: string, letter: Letter, recipients = 1): Promise<ReceivedMail[]> {
  const senderId = await addSender(o, from);
  const templateId = await insert(
    "INSERT INTO templates (org_id, type, name, subject, body) VALUES (?, 'email', 'T', ?, ?)",
    o.orgId,
    letter.subject,
    letter.body,
  );
  for (const [i, file] of (letter.files ?? []).entries()) {
    const key = `test/dkim/${o.orgId}/${templateId}/${i}`;
    await E.FILES.put(key, file.content);
    await insert(
      'INSERT INTO template_attachments (org_id, template_id, file_name, file_key, content_type, size) VALUES (?, ?, ?, ?, ?, ?)',
      o.orgId,
      templateId,
      file.name,
      key,
      file.type,
      file.content.length,
    );
  }
  const tagId = await insert('INSERT INTO tags (org_id, name) VALUES (?, ?)', o.orgId, `Everyone ${++seq}`);
  const addresses: string[] = [];
  for (let i = 0; i < recipients; i++) {
    const address = uniqueAddress('dkim');
    addresses.push(address);
    const contactId = await insert('INSERT INTO contacts (org_id, name) VALUES (?, ?)', o.orgId, `Person ${i}`);
    await insert("INSERT INTO contact_addresses (org_id, contact_id, type, value) VALUES (?, ?, 'email', ?)", o.orgId, contactId, address);
    await E.DB.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)').bind(o.orgId, contactId, tagId).run();
  }
  const broadcastId = await insert(
    "INSERT INTO broadcasts (org_id, name, type, status, sender_id, template_id, do_not_unsubscribe, track_opens, track_clicks, contacts) VALUES (?, 'DKIM', 'email', 'queued', ?, ?, 0, 1, 1, ?)",
    o.orgId,
    senderId,
    templateId,
    JSON.stringify({ filter: { tags: [tagId] } }),
  );
  // The runner's alarm fills a recorded send queue; each queue message is then delivered by the real consumer.
  const queued: SendBatchBody[] = [];
  const queue = { sendBatch: async (batch: { body: SendBatchBody }[]) => void queued.push(...batch.map((m) => m.body)) } as unknown as Queue;
  const e = { ...E, SEND_QUEUE: queue } as Env;
  await runInDurableObject(E.BROADCAST.get(E.BROADCAST.idFromName(String(broadcastId))), async (instance: BroadcastRunner, state) => {
    (instance as unknown as { env: Env }).env = e;
    await state.storage.put('ref', { orgId: o.orgId, broadcastId });
    await instance.alarm();
    await state.storage.deleteAlarm();
  });
  for (const body of queued) {
    const channels = new SendChannels(e);
    try {
      await deliverBatch(e, body, 1, channels);
    } finally {
      await channels.close();
    }
  }
  const ledger = async () => (await orgLedgerDb(E, createDb(E.DB), o.orgId))!;
  expect(await currentBroadcast(createDb(E.DB), ledger, o.orgId, broadcastId)).toMatchObject({ status: 'finished', sent: recipients });
  return Promise.all(addresses.map(async (to) => (await received({ to }))[0]));
}

async function verify(raw: string, records: Record<string, string[]>): Promise<DkimVerdict[]> {
  const res = await fetch(`${S.control}/dkim/verify`, { method: 'POST', body: JSON.stringify({ raw, records }) });
  expect(res.status).toBe(200);
  return res.json();
}

const signatures = (raw: string) => rawHeaders(raw).filter(([name]) => name === 'dkim-signature');

/** The h= list of the message's signature, as written. */
const signedList = (raw: string) => /h=([^;]+);/.exec(signatures(raw)[0][1])![1].replace(/\s+/g, '').split(':');

/** Expects the caught mail to carry one signature of `domain` that mailauth passes. */
async function expectPass(mail: ReceivedMail, records: Record<string, string[]>, domain: string) {
  expect(signatures(mail.raw)).toHaveLength(1);
  const verdicts = await verify(mail.raw, records);
  expect(verdicts).toHaveLength(1);
  expect(verdicts[0], verdicts[0].comment ?? '').toMatchObject({ result: 'pass', domain, selector: 'relay1' });
  return verdicts[0];
}

/** About 60 KB of newsletter: indented rows, links (tracked), UTF-8 text. */
function newsletter(): string {
  let html = '<html>\n  <body>\n    <h1>Neuigkeiten für {{ contact.name }}</h1>\n    <table>\n';
  for (let i = 0; html.length < 60_000; i++) {
    html += `      <tr>\n        <td style="padding: 8px  16px;">\tArtikel ${i}: <a href="https://shop.example/a/${i}">Weiterlesen über Größe ${i} →</a>  </td>\n      </tr>\n`;
  }
  return `${html}    </table>\n  </body>\n</html>\n`;
}

/** A POST to the organisation's API as its owner. */
async function api(o: Org, path: string, json: unknown) {
  const token = (await signIn(o.host, `owner@${o.host}.test`)).access_token;
  const res = await call(o.host, `/api/v1${path}`, { method: 'POST', token, json });
  return { status: res.status, body: (await res.json()) as { data: { id: number } } };
}

/** Delivers a single message (test or transactional) as its queue consumer does, and returns it as caught. */
async function deliverSingle(o: Org, id: number, to: string): Promise<ReceivedMail> {
  await deliverMessage(E, { orgId: o.orgId, messageId: id }, 1);
  let mails = await received({ to });
  // The local queue may have delivered it first: then the claim above had nothing to do, and it is caught already.
  for (let i = 0; mails.length === 0 && i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    mails = await received({ to });
  }
  expect(mails).toHaveLength(1);
  return mails[0];
}

describe.skipIf(NOT_SET_UP)('DKIM signing of the mail Relay sends', () => {
  let o: Org;
  let records: Record<string, string[]>;

  beforeAll(async () => {
    await applyD1Migrations(E.DB, (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS);
    o = await newOrg();
    records = await addDomain(o, o.domain);
  });

  const letters: [string, () => Letter, (raw: string) => void][] = [
    [
      'the short letter',
      () => ({ subject: 'Hi {{ contact.name }}', body: '<p>Hello {{ contact.name }}, see <a href="https://shop.example/">the shop</a>.</p>' }),
      () => {},
    ],
    ['a 60 KB newsletter', () => ({ subject: 'Newsletter 7', body: newsletter() }), (raw) => expect(raw.length).toBeGreaterThan(60_000)],
    [
      'a UTF-8 subject',
      () => ({ subject: 'Grüße, {{ contact.name }} — Ausgabe 7 🌍', body: '<p>Schöne Grüße</p>' }),
      (raw) => expect(raw).toMatch(/^Subject: =\?UTF-8\?/im),
    ],
    [
      'attachments',
      () => ({
        subject: 'Your invoice',
        body: '<p>Attached.</p>',
        files: [
          { name: 'Rechnung März.pdf', type: 'application/pdf', content: Uint8Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 256) },
          { name: 'notes.txt', type: 'text/plain', content: new TextEncoder().encode('plain notes\r\n.dot line\r\n') },
        ],
      }),
      (raw) => expect(raw).toContain('Content-Disposition: attachment'),
    ],
    [
      'a body line starting with a dot',
      () => ({ subject: 'Dots', body: '<p>start</p>\n.hidden line\n..two dots\n.\nend' }),
      (raw) => expect(raw).toMatch(/\r\n\.hidden line/),
    ],
  ];

  for (const [label, letter, check] of letters) {
    it(`a tracked broadcast's mail verifies pass: ${label}`, async () => {
      const mails = await runBroadcast(o, `news@${o.domain}`, letter(), 2);
      for (const mail of mails) {
        check(mail.raw);
        await expectPass(mail, records, o.domain);
        // RFC 8058: one-click unsubscribe counts only when the signature covers both headers; From and Subject oversigned.
        const signed = signedList(mail.raw);
        expect(signed).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post', 'message-id', 'to', 'date']));
        expect(signed.filter((h) => h === 'from')).toHaveLength(2);
        expect(signed.filter((h) => h === 'subject')).toHaveLength(2);
      }
    });
  }

  it('a tampered header or body fails', async () => {
    const [mail] = await runBroadcast(o, `news@${o.domain}`, letters[0][1]());
    await expectPass(mail, records, o.domain);
    const subject = mail.raw.replace(/^Subject: (.*)$/m, 'Subject: $1 (changed)');
    expect(subject).not.toBe(mail.raw);
    expect((await verify(subject, records))[0].result).toBe('fail');
    const end = mail.raw.indexOf('\r\n\r\n');
    const body = `${mail.raw.slice(0, end)}\r\n\r\nSomething else entirely.\r\n`;
    expect((await verify(body, records))[0].result).toBe('fail');
  });

  it('a sender on a subdomain is signed by the nearest verified parent (d= the parent: relaxed alignment)', async () => {
    const [mail] = await runBroadcast(o, `news@mail.${o.domain}`, letters[0][1]());
    expect(mail.raw).toMatch(/^From: .*@mail\./m);
    await expectPass(mail, records, o.domain);
  });

  it('a test message verifies pass', async () => {
    const senderId = await addSender(o, `hello@${o.domain}`);
    const templateId = await insert(
      "INSERT INTO templates (org_id, type, name, subject, body) VALUES (?, 'email', 'Test', 'Testing {{ contact.name }}', '<p>A test, <a href=\"https://shop.example/\">shop</a></p>')",
      o.orgId,
    );
    const to = uniqueAddress('dkimtest');
    const res = await api(o, `/template/${templateId}/test`, { sender_id: senderId, to });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await expectPass(await deliverSingle(o, res.body.data.id, to), records, o.domain);
  });

  it('a transactional message (POST /api/v1/send) verifies pass', async () => {
    const senderId = await addSender(o, `receipts@${o.domain}`);
    const to = uniqueAddress('dkimtx');
    const res = await api(o, '/send', {
      to,
      sender_id: senderId,
      subject: 'Your receipt №7',
      html: '<p>Thanks for your order.</p>',
      text: 'Thanks for your order.',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await expectPass(await deliverSingle(o, res.body.data.id, to), records, o.domain);
  });

  it('with the integration switch off ("my provider signs") nothing is signed', async () => {
    const off = await newOrg(false);
    await addDomain(off, off.domain);
    const [mail] = await runBroadcast(off, `news@${off.domain}`, letters[0][1]());
    expect(signatures(mail.raw)).toEqual([]);
  });

  it('a sender on an unverified domain, or on no domain of the organisation, is unsigned', async () => {
    const pending = await newOrg();
    await addDomain(pending, pending.domain, false);
    const [unverified] = await runBroadcast(pending, `news@${pending.domain}`, letters[0][1]());
    expect(signatures(unverified.raw)).toEqual([]);
    const [unknown] = await runBroadcast(o, `news@elsewhere-${o.domain}`, letters[0][1]());
    expect(signatures(unknown.raw)).toEqual([]);
  });

  it("never signs with another organisation's verified domain", async () => {
    const other = await newOrg();
    const [mail] = await runBroadcast(other, `news@${o.domain}`, letters[0][1]());
    expect(signatures(mail.raw)).toEqual([]);
  });
});
