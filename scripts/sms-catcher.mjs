// The local SMS catcher: a Twilio-shaped HTTP server on loopback that accepts every SMS the platform sends and
// keeps it as a JSON file, plus a tiny read-only viewer. Nothing is ever delivered anywhere.
//
//   node scripts/sms-catcher.mjs        http://127.0.0.1:8026 (SMS_PORT), files in .local/sms (SMS_DIR),
//                                       account numbers from SMS_NUMBERS (comma-separated E.164)
//
// Point the worker at it with TWILIO_API_BASE=http://127.0.0.1:8026. Any account SID (AC + 32 hex) with any
// non-empty token is accepted (basic auth, user name = the SID in the path) unless a token is configured.
//   POST /2010-04-01/Accounts/:sid/Messages.json            To, From, Body (form-encoded) -> 201, Twilio's shape
//   GET  /2010-04-01/Accounts/:sid/Messages/:sid.json        one caught message
//   GET  /2010-04-01/Accounts/:sid/IncomingPhoneNumbers.json the configured numbers (PageSize, Page, next_page_uri)
//   GET  /  (html list)   GET /messages.json (newest first; ?limit=N)   DELETE /messages (empties the box, for tests)
//   POST /reply  sid, Body (form or JSON): the recipient of a caught message answers it (STOP, START, anything)
//
// Like Twilio, it reports each SMS sent with a StatusCallback to that URL: "sent", then "delivered" (or
// "undelivered" with error 30003 when the number ends in 99), each signed with X-Twilio-Signature and the auth token
// the SMS was sent with. A reply goes to the integration's inbound URL (the StatusCallback's sibling, .../inbound),
// signed the same way. SMS_CALLBACKS=off stops both.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_SMS_NUMBERS = ['+15005550006', '+15005550001'];
const ACCOUNT_SID = /^AC[0-9a-fA-F]{32}$/;
const E164 = /^\+[1-9]\d{6,14}$/;
const ALPHANUMERIC_SENDER = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;
const FILE = /^[0-9TZ]+-SM[0-9a-f]{32}\.json$/;
const MAX_BODY = 1600;

const escapeHtml = (value) => String(value ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]);

/** Twilio's date format: "Thu, 24 Aug 2023 05:01:45 +0000". */
const twilioDate = (date) => date.toUTCString().replace('GMT', '+0000');

/** Twilio's X-Twilio-Signature: base64 HMAC-SHA1 of the URL and the parameters sorted by name (name+value). */
export function signTwilioRequest(authToken, url, params) {
  const sorted = [...params].sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return createHmac('sha1', authToken)
    .update(url + sorted.map(([k, v]) => k + v).join(''))
    .digest('base64');
}

/** POSTs a signed, form-encoded webhook the way Twilio does; answers the HTTP status (0 when unreachable). */
async function postWebhook(url, authToken, fields) {
  const params = new URLSearchParams(fields);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signTwilioRequest(authToken, url, params),
        'user-agent': 'TwilioProxy/1.1',
      },
      body: params.toString(),
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** A Twilio-shaped error body (code, message, more_info, status). */
function twilioError(res, status, code, message) {
  sendJson(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

/** SMS segments the way carriers count them: 160/153 GSM characters, 70/67 when the text needs UCS-2. */
function segments(body) {
  const gsm = /^[\n\r\u0020-\u007e£¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà€]*$/.test(body);
  const [single, part] = gsm ? [160, 153] : [70, 67];
  const length = [...body].length;
  return length <= single ? 1 : Math.ceil(length / part);
}

/** The account SID from basic auth, when it matches the path and the token is acceptable; else null. */
function authorizedSid(req, pathSid, authToken) {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const user = decoded.slice(0, colon);
  const token = decoded.slice(colon + 1);
  if (user !== pathSid || !token) return null;
  if (authToken && token !== authToken) return null;
  return user;
}

async function readText(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 64 * 1024) throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const readForm = async (req) => new URLSearchParams(await readText(req));

async function listFiles(dir) {
  const names = await readdir(dir).catch(() => []);
  return names
    .filter((n) => FILE.test(n))
    .sort()
    .reverse();
}

async function listMessages(dir, limit) {
  const files = (await listFiles(dir)).slice(0, limit);
  const items = await Promise.all(
    files.map((f) =>
      readFile(path.join(dir, f), 'utf8')
        .then(JSON.parse)
        .catch(() => null),
    ),
  );
  return items.filter(Boolean);
}

function phoneNumberResource(sid, number, index) {
  const pn = `PN${createHash('md5').update(`${sid}:${number}`).digest('hex')}`;
  return {
    account_sid: sid,
    api_version: '2010-04-01',
    capabilities: { voice: false, sms: true, mms: false, fax: false },
    date_created: twilioDate(new Date(0)),
    date_updated: twilioDate(new Date(0)),
    friendly_name: `Local number ${index + 1}`,
    phone_number: number,
    sid: pn,
    status: 'in-use',
    uri: `/2010-04-01/Accounts/${sid}/IncomingPhoneNumbers/${pn}.json`,
  };
}

function replyForm(m) {
  if (m.direction === 'inbound' || !m.status_callback) return '';
  return `<form method="post" action="/reply"><input type="hidden" name="sid" value="${escapeHtml(m.sid)}">
<input name="Body" value="STOP" size="8" aria-label="Reply text"> <button>Reply</button></form>`;
}

/** The line the viewer shows after its Reply form: what was sent where, and how the platform answered. */
function replyNotice(query) {
  if (!query.has('replied')) return '';
  const status = Number(query.get('status'));
  const ok = status >= 200 && status < 300;
  const text = ok
    ? `Reply "${query.get('body') ?? ''}" from ${query.get('from') ?? ''} sent to the platform, which took it (HTTP ${status}).`
    : `Reply "${query.get('body') ?? ''}" from ${query.get('from') ?? ''} was not taken by the platform (${status ? `HTTP ${status}` : 'unreachable'}).`;
  return `<p role="status" id="reply-notice" class="${ok ? 'ok' : 'failed'}">${escapeHtml(text)}</p>`;
}

function listPage(messages, dir, query = new URLSearchParams()) {
  const rows = messages
    .map(
      (m) => `<tr><td>${escapeHtml(m.received_at)}</td><td>${escapeHtml(m.from)}</td><td>${escapeHtml(m.to)}</td>
<td><pre>${escapeHtml(m.body)}</pre></td><td>${escapeHtml(m.status)}${m.error_code ? ` (${escapeHtml(m.error_code)})` : ''}</td>
<td><code>${escapeHtml(m.sid)}</code></td><td>${replyForm(m)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Caught SMS</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
  pre { margin: 0; white-space: pre-wrap; word-break: break-word; font-family: inherit; }
  #reply-notice { padding: .6rem .8rem; border-radius: 4px; } .ok { background: #e6f4ea; } .failed { background: #fdecea; }
</style></head><body>
<h1>Caught SMS</h1>${replyNotice(query)}<p>${messages.length} message(s), newest first. Files: <code>${escapeHtml(dir)}</code>. <a href="/messages.json">JSON</a></p>
<p>A reply (STOP, START or any text) goes from the recipient to the platform, signed like Twilio's.</p>
<table><thead><tr><th>Received</th><th>From</th><th>To</th><th>Text</th><th>Status</th><th>SID</th><th>Reply as the recipient</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No SMS yet.</td></tr>'}</tbody></table></body></html>`;
}

/** Writes a message file atomically (write, then rename), so the viewer never reads half a file. */
async function writeMessage(file, message) {
  await writeFile(`${file}.tmp`, JSON.stringify(message, null, 2));
  await rename(`${file}.tmp`, file);
}

/** Numbers ending in 99 are "unreachable handsets": their SMS end undelivered with Twilio's error 30003. */
const undeliverable = (to) => to.endsWith('99');

function handler({ dir, numbers, authToken, callbacks, callbackDelayMs }) {
  /** Message SID -> the auth token it was sent with (kept in memory only, to sign its callbacks and replies). */
  const tokens = new Map();

  /** Plays Twilio's status callbacks for a caught SMS: sent, then delivered or undelivered (30003). */
  const reportDelivery = (file, message, token) => {
    const steps = undeliverable(message.to) ? [['sent'], ['undelivered', '30003']] : [['sent'], ['delivered']];
    let chain = Promise.resolve();
    for (const [status, errorCode] of steps) {
      chain = chain
        .then(() => new Promise((resolve) => setTimeout(resolve, callbackDelayMs)))
        .then(async () => {
          Object.assign(message, { status, error_code: errorCode ?? null, date_updated: twilioDate(new Date()) });
          await writeMessage(file, message);
          const fields = {
            AccountSid: message.account_sid,
            ApiVersion: '2010-04-01',
            From: message.from ?? '',
            To: message.to,
            MessageSid: message.sid,
            SmsSid: message.sid,
            MessageStatus: status,
            SmsStatus: status,
          };
          if (errorCode) fields.ErrorCode = errorCode;
          message.callbacks = [...(message.callbacks ?? []), { status, http_status: await postWebhook(message.status_callback, token, fields) }];
          await writeMessage(file, message);
        });
    }
    return chain.catch(() => {});
  };

  /** The recipient of a caught SMS answers it: a signed inbound webhook to the integration's .../inbound URL. */
  const reply = async (sid, body) => {
    const files = await listFiles(dir);
    for (const name of files) {
      const m = await readFile(path.join(dir, name), 'utf8')
        .then(JSON.parse)
        .catch(() => null);
      if (m?.sid !== sid) continue;
      const token = tokens.get(sid);
      if (!m.status_callback || !token)
        return { status: 409, body: { message: 'This SMS was sent without a StatusCallback in this run of the catcher: nowhere to reply to.' } };
      const url = m.status_callback.replace(/\/status(\?.*)?$/, '/inbound');
      const inboundSid = `SM${randomBytes(16).toString('hex')}`;
      const fields = {
        AccountSid: m.account_sid,
        ApiVersion: '2010-04-01',
        MessageSid: inboundSid,
        SmsSid: inboundSid,
        SmsMessageSid: inboundSid,
        From: m.to,
        To: m.from ?? '',
        Body: body,
        NumMedia: '0',
        NumSegments: '1',
      };
      const status = await postWebhook(url, token, fields);
      return { status: 200, body: { url, http_status: status, from: m.to, to: m.from, body } };
    }
    return { status: 404, body: { message: `No caught SMS ${sid}` } };
  };

  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const p = url.pathname;
      if (p === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(listPage(await listMessages(dir, 500), dir, url.searchParams));
      }
      if (p === '/messages.json' && req.method === 'GET') {
        return sendJson(res, 200, await listMessages(dir, Number(url.searchParams.get('limit')) || undefined));
      }
      if (p === '/reply' && req.method === 'POST') {
        const text = await readText(req);
        const json = String(req.headers['content-type'] ?? '').includes('json') ? JSON.parse(text || '{}') : null;
        const form = new URLSearchParams(json ? '' : text);
        const sid = json ? json.sid : form.get('sid');
        const body = (json ? (json.body ?? json.Body) : form.get('Body')) ?? '';
        const answer = await reply(String(sid ?? ''), String(body));
        // The viewer's form comes back to the list, which says what became of the reply; scripts get JSON.
        if (!json && answer.status === 200) {
          const back = new URLSearchParams({ replied: String(sid), status: String(answer.body.http_status), from: answer.body.from ?? '', body });
          res.writeHead(303, { location: `/?${back}` });
          return res.end();
        }
        return sendJson(res, answer.status, answer.body);
      }
      if (p === '/messages' && req.method === 'DELETE') {
        const files = await listFiles(dir);
        await Promise.all(files.map((f) => rm(path.join(dir, f), { force: true })));
        return sendJson(res, 200, { deleted: files.length });
      }
      const api = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|IncomingPhoneNumbers)(?:\/([^/]+))?\.json$/.exec(p);
      if (!api) return twilioError(res, 404, 20404, 'The requested resource was not found');
      const [, sid, resource, item] = api;
      if (!ACCOUNT_SID.test(sid)) return twilioError(res, 404, 20404, `The requested resource /2010-04-01/Accounts/${sid} was not found`);
      if (!authorizedSid(req, sid, authToken)) {
        res.setHeader('www-authenticate', 'Basic realm="Twilio API"');
        return twilioError(res, 401, 20003, 'Authenticate');
      }
      if (resource === 'IncomingPhoneNumbers' && !item && req.method === 'GET') {
        const pageSize = Math.min(1000, Math.max(1, Number(url.searchParams.get('PageSize')) || 50));
        const page = Math.max(0, Number(url.searchParams.get('Page')) || 0);
        const all = numbers.map((n, i) => phoneNumberResource(sid, n, i));
        const slice = all.slice(page * pageSize, (page + 1) * pageSize);
        const base = `/2010-04-01/Accounts/${sid}/IncomingPhoneNumbers.json`;
        const hasNext = (page + 1) * pageSize < all.length;
        return sendJson(res, 200, {
          first_page_uri: `${base}?PageSize=${pageSize}&Page=0`,
          end: page * pageSize + Math.max(0, slice.length - 1),
          incoming_phone_numbers: slice,
          next_page_uri: hasNext ? `${base}?PageSize=${pageSize}&Page=${page + 1}` : null,
          page,
          page_size: pageSize,
          previous_page_uri: page > 0 ? `${base}?PageSize=${pageSize}&Page=${page - 1}` : null,
          start: page * pageSize,
          uri: `${base}?PageSize=${pageSize}&Page=${page}`,
        });
      }
      if (resource === 'Messages' && item && req.method === 'GET') {
        const found = (await listMessages(dir)).find((m) => m.sid === item && m.account_sid === sid);
        return found ? sendJson(res, 200, found) : twilioError(res, 404, 20404, `The requested resource ${p} was not found`);
      }
      if (resource !== 'Messages' || item || req.method !== 'POST') return twilioError(res, 405, 20004, 'Method not allowed');

      if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        return twilioError(res, 400, 20001, 'The request body must be form-encoded (application/x-www-form-urlencoded).');
      }
      const form = await readForm(req);
      const to = (form.get('To') ?? '').trim();
      const from = (form.get('From') ?? '').trim();
      const body = form.get('Body') ?? '';
      if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
      if (!from && !form.get('MessagingServiceSid')) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
      if (!body.trim() && !form.get('MediaUrl')) return twilioError(res, 400, 21602, 'Message body is required.');
      if (!E164.test(to)) return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      if (from && !E164.test(from) && !ALPHANUMERIC_SENDER.test(from)) {
        return twilioError(res, 400, 21212, `The 'From' number ${from} is not a valid phone number, shortcode, or alphanumeric sender ID.`);
      }
      if ([...body].length > MAX_BODY) return twilioError(res, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');

      const now = new Date();
      const messageSid = `SM${randomBytes(16).toString('hex')}`;
      const uri = `/2010-04-01/Accounts/${sid}/Messages/${messageSid}.json`;
      const message = {
        account_sid: sid,
        api_version: '2010-04-01',
        body,
        date_created: twilioDate(now),
        date_sent: null,
        date_updated: twilioDate(now),
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from: from || null,
        messaging_service_sid: form.get('MessagingServiceSid') || null,
        num_media: '0',
        num_segments: String(segments(body)),
        price: null,
        price_unit: 'USD',
        sid: messageSid,
        status: 'queued',
        subresource_uris: { media: `/2010-04-01/Accounts/${sid}/Messages/${messageSid}/Media.json` },
        to,
        uri,
        received_at: now.toISOString(),
        status_callback: form.get('StatusCallback') || null,
      };
      const file = path.join(dir, `${now.toISOString().replace(/[-:.]/g, '')}-${messageSid}.json`);
      await writeMessage(file, message);
      const token = Buffer.from((req.headers.authorization ?? '').slice(6), 'base64')
        .toString('utf8')
        .split(':')
        .slice(1)
        .join(':');
      tokens.set(messageSid, token);
      if (callbacks && message.status_callback) void reportDelivery(file, { ...message }, token);
      const { received_at: _received, status_callback: _callback, ...answer } = message;
      return sendJson(res, 201, answer);
    } catch (err) {
      if (!res.headersSent) twilioError(res, err.status ?? 500, err.status ? 20001 : 20500, err.message);
    }
  };
}

/**
 * Starts the SMS catcher on 127.0.0.1 (port 0 picks a free one). `numbers` are the account's phone numbers
 * (SMS_NUMBERS or two test numbers by default); `authToken`, when set, is the only token accepted. `callbacks`
 * (default on unless SMS_CALLBACKS=off) plays status callbacks, `callbackDelayMs` apart.
 * Resolves { port, url, dir, numbers, close() }.
 */
export async function startSmsCatcher({
  port = 8026,
  dir = path.join(ROOT, '.local', 'sms'),
  numbers,
  authToken = null,
  callbacks = process.env.SMS_CALLBACKS !== 'off',
  callbackDelayMs = 300,
} = {}) {
  const list = (numbers ?? (process.env.SMS_NUMBERS ? process.env.SMS_NUMBERS.split(',') : DEFAULT_SMS_NUMBERS)).map((n) => n.trim()).filter(Boolean);
  await mkdir(dir, { recursive: true });
  const server = http.createServer(handler({ dir, numbers: list, authToken, callbacks, callbackDelayMs }));
  const bound = await new Promise((resolve, reject) => {
    const onError = (err) => reject(new Error(`The SMS catcher could not listen on 127.0.0.1:${port}: ${err.message}`));
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(server.address().port);
    });
  });
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    dir,
    numbers: list,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const catcher = await startSmsCatcher({
    port: Number(process.env.SMS_PORT) || 8026,
    dir: process.env.SMS_DIR ? path.resolve(process.env.SMS_DIR) : undefined,
  });
  console.log(`SMS catcher: http://127.0.0.1:${catcher.port} (TWILIO_API_BASE), numbers ${catcher.numbers.join(', ')}, files in ${catcher.dir}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => catcher.close().then(() => process.exit(0)));
}
