// The local mail catcher: an SMTP server on loopback that accepts every message the platform sends and
// keeps it as a .eml file, plus a tiny read-only web viewer. Nothing is ever delivered anywhere.
//
//   node scripts/mail-catcher.mjs        SMTP on 127.0.0.1:1025 (MAIL_PORT), viewer on http://127.0.0.1:8025
//                                        (MAIL_UI_PORT), files in .local/mail (MAIL_DIR)
//
// Viewer: GET / (list), GET /messages.json (parsed, newest first; ?limit=N), GET /messages/:id (one message),
// GET /messages/:id.json, GET /messages/:id.eml (raw), DELETE /messages (empties the box, for tests).
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { linksInNewTab, MAIL_FRAME_SANDBOX } from './lib/mail-frame.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ID = /^[0-9TZ]+-[0-9a-f]+$/;

/** A sortable message id: UTC time to the millisecond, then random hex (also the file name). */
function newId() {
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

const escapeHtml = (value) => String(value ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]);

/** The List-Unsubscribe header's web and mailto addresses as links to a new tab (a GET only opens the page). */
function unsubscribeLinks(value) {
  const uris = [...String(value ?? '').matchAll(/<([^>]+)>/g)].map((m) => m[1].trim()).filter((uri) => /^(https?:|mailto:)/i.test(uri));
  return uris.map((uri) => `<a href="${escapeHtml(uri)}" target="_blank" rel="noopener">${escapeHtml(uri)}</a>`).join('<br>');
}

const addressesOf = (list) => (list ?? []).flatMap((a) => (a.group ? a.group.map((m) => m.address) : [a.address])).filter(Boolean);

/** Reads one stored message and parses it; null when it is not there. */
async function loadMessage(dir, id) {
  if (!ID.test(id)) return null;
  let raw;
  try {
    raw = await readFile(path.join(dir, `${id}.eml`));
  } catch {
    return null;
  }
  const email = await PostalMime.parse(raw);
  const header = (name) => email.headers.find((h) => h.key === name)?.value ?? '';
  return {
    id,
    from: email.from?.address ?? '',
    from_name: email.from?.name ?? '',
    to: addressesOf(email.to),
    cc: addressesOf(email.cc),
    envelope: {
      from: header('x-mail-catcher-envelope-from'),
      to: header('x-mail-catcher-envelope-to').split(/,\s*/).filter(Boolean),
    },
    subject: email.subject ?? '',
    date: email.date ?? '',
    received_at: id.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)(\d{3})Z-.*/, '$1-$2-$3T$4:$5:$6.$7Z'),
    headers: Object.fromEntries(email.headers.map((h) => [h.key, h.value])),
    text: email.text ?? '',
    html: email.html ?? '',
    attachments: email.attachments.map((a) => ({ filename: a.filename, mime_type: a.mimeType, size: a.content.byteLength ?? 0 })),
    raw: raw.toString('utf8'),
  };
}

/** Ids of stored messages, newest first. */
async function listIds(dir) {
  const names = await readdir(dir).catch(() => []);
  return names
    .filter((n) => n.endsWith('.eml'))
    .map((n) => n.slice(0, -4))
    .filter((id) => ID.test(id))
    .sort()
    .reverse();
}

async function listMessages(dir, limit) {
  const ids = (await listIds(dir)).slice(0, limit);
  return (await Promise.all(ids.map((id) => loadMessage(dir, id)))).filter(Boolean);
}

const page = (title, body) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #ddd; }
  pre { background: #f6f6f6; padding: 1rem; white-space: pre-wrap; word-break: break-word; }
  iframe { width: 100%; height: 28rem; border: 1px solid #ddd; }
  dt { font-weight: 600; } dd { margin: 0 0 .5rem 0; overflow-wrap: anywhere; }
  .note { color: #555; margin: 0 0 .4rem 0; }
</style></head><body>${body}</body></html>`;

function listPage(messages, dir) {
  const rows = messages
    .map(
      (m) => `<tr><td>${escapeHtml(m.received_at)}</td><td>${escapeHtml(m.from)}</td><td>${escapeHtml(m.to.join(', '))}</td>
<td><a href="/messages/${m.id}">${escapeHtml(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('\n');
  return page(
    'Caught mail',
    `<h1>Caught mail</h1><p>${messages.length} message(s), newest first. Files: <code>${escapeHtml(dir)}</code>.
<a href="/messages.json">JSON</a></p>
<table><thead><tr><th>Received</th><th>From</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No mail yet.</td></tr>'}</tbody></table>`,
  );
}

/** The mail's html in a sandboxed frame whose links open in a new tab (scripts/lib/mail-frame.mjs says why), and a note saying so. */
function mailFrame(html) {
  return `<p class="note" id="mail-html-note">Links in this mail open in a new tab.</p>
<iframe id="mail-html" title="The mail's HTML" sandbox="${MAIL_FRAME_SANDBOX}" srcdoc="${escapeHtml(linksInNewTab(html))}"></iframe>`;
}

function messagePage(m) {
  return page(
    m.subject || '(no subject)',
    `<p><a href="/">&larr; all mail</a> · <a href="/messages/${m.id}.eml">raw .eml</a> · <a href="/messages/${m.id}.json">JSON</a></p>
<h1>${escapeHtml(m.subject || '(no subject)')}</h1>
<dl><dt>From</dt><dd>${escapeHtml(m.from_name ? `${m.from_name} <${m.from}>` : m.from)}</dd>
<dt>To</dt><dd>${escapeHtml(m.to.join(', '))}</dd>
${m.cc.length ? `<dt>Cc</dt><dd>${escapeHtml(m.cc.join(', '))}</dd>` : ''}
<dt>Envelope</dt><dd>${escapeHtml(m.envelope.from)} &rarr; ${escapeHtml(m.envelope.to.join(', '))}</dd>
${m.date ? `<dt>Date</dt><dd>${escapeHtml(m.date)}</dd>` : ''}
${m.headers['list-unsubscribe'] ? `<dt>List-Unsubscribe</dt><dd id="list-unsubscribe">${unsubscribeLinks(m.headers['list-unsubscribe'])}</dd>` : ''}
${m.attachments.length ? `<dt>Attachments</dt><dd>${m.attachments.map((a) => escapeHtml(`${a.filename ?? 'unnamed'} (${a.mime_type}, ${a.size} bytes)`)).join('<br>')}</dd>` : ''}</dl>
${m.html ? `<h2>HTML</h2>${mailFrame(m.html)}` : ''}
<h2>Text</h2><pre>${escapeHtml(m.text || '(none)')}</pre>
<h2>Raw</h2><pre>${escapeHtml(m.raw)}</pre>`,
  );
}

function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

function viewer(dir) {
  return http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const p = url.pathname;
      if (req.method === 'DELETE' && p === '/messages') {
        const ids = await listIds(dir);
        await Promise.all(ids.map((id) => rm(path.join(dir, `${id}.eml`), { force: true })));
        return send(res, 200, 'application/json', JSON.stringify({ deleted: ids.length }));
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'read-only\n');
      if (p === '/') return send(res, 200, 'text/html; charset=utf-8', listPage(await listMessages(dir, 500), dir));
      if (p === '/messages.json') {
        const limit = Number(url.searchParams.get('limit')) || undefined;
        const items = (await listMessages(dir, limit)).map(({ raw, ...m }) => m);
        return send(res, 200, 'application/json', JSON.stringify(items));
      }
      const match = /^\/messages\/([^/]+?)(\.json|\.eml)?$/.exec(p);
      const m = match && (await loadMessage(dir, match[1]));
      if (!m) return send(res, 404, 'text/plain', 'not found\n');
      if (match[2] === '.json') return send(res, 200, 'application/json', JSON.stringify(m));
      if (match[2] === '.eml') return send(res, 200, 'message/rfc822', m.raw);
      return send(res, 200, 'text/html; charset=utf-8', messagePage(m));
    } catch (err) {
      send(res, 500, 'text/plain', `${err.message}\n`);
    }
  });
}

function smtp(dir, answers) {
  return new SMTPServer({
    name: 'mail-catcher.localhost',
    banner: 'local mail catcher: nothing is delivered',
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    size: 50 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username || 'anyone' }); // any credentials are fine
    },
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', async () => {
        try {
          const envelope =
            `X-Mail-Catcher-Envelope-From: ${session.envelope.mailFrom ? session.envelope.mailFrom.address : ''}\r\n` +
            `X-Mail-Catcher-Envelope-To: ${session.envelope.rcptTo.map((r) => r.address).join(', ')}\r\n`;
          const id = newId();
          const file = path.join(dir, `${id}.eml`);
          // Write then rename, so the viewer never reads half a message.
          await writeFile(`${file}.tmp`, Buffer.concat([Buffer.from(envelope), ...chunks]));
          await rename(`${file}.tmp`, file);
          answerLikeAMailbox(session.envelope, answers);
          // Worded as Postfix words it, with the random part of the file's id (the time part is the same for every
          // message of a day): the platform keeps it as the message's external id, the viewer's file name ends with it.
          callback(null, `Ok: queued as ${id.split('-').pop()}`);
        } catch (err) {
          callback(err);
        }
      });
    },
  });
}

// Some mailboxes answer as real ones would, so the bounce loop can be tried locally (README "Bounces and
// complaints"): mail to hard-bounce@ (any domain) comes back as a delivery status notification with 5.1.1, to
// soft-bounce@ with 4.2.2, to complaint@ as a spam report (RFC 5965), each to the envelope sender (the message's
// bounce address), posted to the platform's email handler as Cloudflare Email Routing would deliver it.
const ANSWERS = {
  'hard-bounce': (rcpt) => deliveryStatus(rcpt, '5.1.1', '550 5.1.1 User unknown'),
  'soft-bounce': (rcpt) => deliveryStatus(rcpt, '4.2.2', '452 4.2.2 Mailbox full'),
  complaint: (rcpt) => feedbackReport(rcpt),
};
const DAEMON = 'mailer-daemon@mail-catcher.localhost';

function deliveryStatus(rcpt, status, reply) {
  return {
    subject: 'Undelivered Mail Returned to Sender',
    type: 'multipart/report; report-type=delivery-status',
    parts: [
      ['text/plain', `Your message to ${rcpt} could not be delivered (the local mail catcher plays this bounce).`],
      [
        'message/delivery-status',
        `Reporting-MTA: dns; mail-catcher.localhost\r\n\r\nFinal-Recipient: rfc822; ${rcpt}\r\nAction: failed\r\nStatus: ${status}\r\nDiagnostic-Code: smtp; ${reply}`,
      ],
    ],
  };
}

function feedbackReport(rcpt) {
  return {
    subject: 'Spam report',
    type: 'multipart/report; report-type=feedback-report',
    parts: [
      ['text/plain', `${rcpt} reported this message as spam (the local mail catcher plays this report).`],
      ['message/feedback-report', `Feedback-Type: abuse\r\nUser-Agent: mail-catcher\r\nVersion: 1\r\nOriginal-Rcpt-To: ${rcpt}`],
    ],
  };
}

function answerLikeAMailbox(envelope, answers) {
  const bounceTo = envelope.mailFrom ? envelope.mailFrom.address : '';
  if (!answers.endpoint || !bounceTo) return;
  for (const { address } of envelope.rcptTo) {
    const answer = ANSWERS[address.split('@')[0].toLowerCase()];
    if (!answer) continue;
    const report = answer(address);
    const boundary = `b${newId()}`;
    const raw = [
      `From: Mail Delivery System <${DAEMON}>`,
      `To: ${bounceTo}`,
      `Subject: ${report.subject}`,
      `Message-ID: <${newId()}@mail-catcher.localhost>`,
      `Date: ${new Date().toUTCString()}`,
      'MIME-Version: 1.0',
      `Content-Type: ${report.type}; boundary="${boundary}"`,
      '',
      ...report.parts.flatMap(([type, body]) => [`--${boundary}`, `Content-Type: ${type}`, '', body]),
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const url = `${answers.endpoint}?from=${encodeURIComponent(DAEMON)}&to=${encodeURIComponent(bounceTo)}`;
    // A moment later, as a receiving server answers after it accepted the mail.
    setTimeout(() => {
      fetch(url, { method: 'POST', body: raw }).catch((err) => console.error(`mail catcher: the ${address} answer was not delivered: ${err.message}`));
    }, 300);
  }
}

function listen(server, port, label) {
  return new Promise((resolve, reject) => {
    const onError = (err) => reject(new Error(`${label} could not listen on 127.0.0.1:${port}: ${err.message}`));
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(server.address().port);
    });
  });
}

/**
 * Starts the SMTP catcher and its viewer on 127.0.0.1 (port 0 picks a free one).
 * Resolves { smtpPort, httpPort, dir, close() }.
 */
export async function startMailCatcher({ smtpPort = 1025, httpPort = 8025, dir = path.join(ROOT, '.local', 'mail') } = {}) {
  await mkdir(dir, { recursive: true });
  // Where the catcher sends the bounces and complaints it plays (answerBouncesAt): the platform's email handler.
  const answers = { endpoint: null };
  const smtpServer = smtp(dir, answers);
  const httpServer = viewer(dir);
  const boundSmtp = await listen(smtpServer.server, smtpPort, 'The SMTP catcher');
  let boundHttp;
  try {
    boundHttp = await listen(httpServer, httpPort, 'The mail viewer');
  } catch (err) {
    await new Promise((r) => smtpServer.close(r));
    throw err;
  }
  return {
    smtpPort: boundSmtp,
    httpPort: boundHttp,
    dir,
    /** From now on, mail to hard-bounce@, soft-bounce@ or complaint@ (any domain) is answered at `url` (wrangler dev's email endpoint). */
    answerBouncesAt: (url) => {
      answers.endpoint = url;
    },
    close: () =>
      Promise.all([
        new Promise((r) => smtpServer.close(r)),
        new Promise((r) => {
          httpServer.closeAllConnections?.();
          httpServer.close(() => r());
        }),
      ]).then(() => undefined),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const catcher = await startMailCatcher({
    smtpPort: Number(process.env.MAIL_PORT) || 1025,
    httpPort: Number(process.env.MAIL_UI_PORT) || 8025,
    dir: process.env.MAIL_DIR ? path.resolve(process.env.MAIL_DIR) : undefined,
  });
  console.log(`Mail catcher: SMTP on 127.0.0.1:${catcher.smtpPort}, viewer on http://127.0.0.1:${catcher.httpPort}, files in ${catcher.dir}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => catcher.close().then(() => process.exit(0)));
}
