// The local webhook catcher: an HTTP server on loopback that takes every webhook the platform delivers, checks its
// Standard Webhooks signature and keeps it in memory (a restart forgets), plus a page listing what arrived.
//
//   node scripts/webhook-catcher.mjs    http://127.0.0.1:8029 (WEBHOOK_PORT), secrets from .local/webhooks.json
//                                       (WEBHOOK_SECRETS)
//
// Where it learns the secrets: the secrets file, read on every delivery, `{ "secrets": { "<endpoint url>":
// "whsec_..." } }` (the seed writes the seeded endpoint's there), and whatever POST /api/secrets added. A delivery is
// "signature ok" when one of them verifies it, "signature bad" when none does, "no secret" when it knows none.
//   POST <any path but /api/...>   a delivery: recorded, answered 204 (or as the behaviour below says)
//   GET  /                         the page: what arrived, newest first, each with its verdict and body
//   GET  /api/requests             { items (newest first; ?limit=N), counts, behaviour }
//   DELETE /api/requests           forgets every request and count (the behaviour stays)
//   GET  /api/event-ids            { ids }: every event id accepted (answered 2xx) at least once
//   POST /api/secrets              { secret: "whsec_..." }: one more secret to verify with
//   POST /api/behaviour            { failRate?: 0..1, downUntil?: epoch ms }: answer 500 to that share of deliveries,
//                                  and drop the connection without an answer until then (a receiver that is down)
// Duplicates: a delivery accepted with a webhook-id accepted before is counted (counts.duplicates) and flagged.
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_BODY = 2 * 1024 * 1024;

const escapeHtml = (value) => String(value ?? '').replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]);

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The secrets in the file (none when it is missing or not the expected shape). */
async function fileSecrets(file) {
  try {
    const json = JSON.parse(await readFile(file, 'utf8'));
    return Object.values(json?.secrets ?? {}).filter((s) => typeof s === 'string');
  } catch {
    return [];
  }
}

/** 'ok' when one of the secrets verifies the delivery, 'bad' (with why) when none does, 'none' without secrets. */
function verify(secrets, body, headers) {
  if (secrets.length === 0) return { verdict: 'none', detail: 'no secret known' };
  let detail = 'no secret matches';
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(body, headers);
      return { verdict: 'ok', detail: null };
    } catch (err) {
      // A timestamp or header problem is the same for every secret; say that rather than "no match".
      if (!/No matching signature/.test(err.message)) detail = err.message;
    }
  }
  return { verdict: 'bad', detail };
}

/** The event(s) a body carries: one event object, or an array of them (an endpoint taking batches). */
function eventsIn(body) {
  const list = Array.isArray(body) ? body : body && typeof body === 'object' ? [body] : [];
  return list.filter((e) => e && typeof e === 'object');
}

const VERDICT_LABEL = { ok: 'signature ok', bad: 'signature bad', none: 'no secret' };

/** One caught request as a row of the page: time, event, webhook-id, verdict, answer, the body to unfold. */
function row(r) {
  const event = `${escapeHtml(r.types.join(', ') || '(no type)')}${r.eventIds.length > 1 ? ` (${r.eventIds.length} events)` : ''}`;
  const body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body, null, 2);
  return `<tr><td>${escapeHtml(r.at)}</td><td>${event}</td>
<td><code>${escapeHtml(r.webhookId ?? '(none)')}</code>${r.duplicate ? ' <b>duplicate</b>' : ''}</td>
<td class="${r.verdict}" title="${escapeHtml(r.verdictDetail ?? '')}">${VERDICT_LABEL[r.verdict]}</td><td>${r.answered}</td>
<td><details open><summary>${escapeHtml(r.path)}</summary><pre>${escapeHtml(body)}</pre></details></td></tr>`;
}

function listPage(state) {
  const { counts, behaviour } = state;
  const rows = state.requests.map(row).join('\n');
  const down = behaviour.downUntil > Date.now() ? `; down until ${new Date(behaviour.downUntil).toISOString()}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Caught webhooks</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
  table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
  pre { background: #f6f6f6; padding: .6rem; margin: .4rem 0 0; white-space: pre-wrap; word-break: break-word; }
  .ok { color: #1e7b34; } .bad { color: #b3261e; font-weight: 600; } .none { color: #777; }
</style></head><body>
<h1>Caught webhooks</h1>
<p>${counts.received} request(s): ${counts.accepted} accepted, ${counts.duplicates} duplicate(s), ${counts.failed} answered 500 on purpose, ${counts.dropped} dropped while down, ${counts.unverified} without a good signature.
Failing ${Math.round(behaviour.failRate * 100)} % on purpose${down}. Newest first (the last ${state.keep} kept). <a href="/api/requests">JSON</a></p>
<table><thead><tr><th>Received</th><th>Event</th><th>webhook-id</th><th>Signature</th><th>Answer</th><th>Body</th></tr></thead>
<tbody>${rows || '<tr><td colspan="6">No webhooks yet. Send a broadcast, or "Send test event" on the Webhooks screen.</td></tr>'}</tbody></table></body></html>`;
}

function emptyCounts() {
  return { received: 0, accepted: 0, duplicates: 0, failed: 0, dropped: 0, unverified: 0 };
}

function handler(state) {
  /** One delivery: dropped while down, else recorded, verified and answered (500 for the failing share). */
  const deliver = async (req, res, p) => {
    state.counts.received++;
    if (state.behaviour.downUntil > Date.now()) {
      state.counts.dropped++;
      return req.socket.destroy(); // no answer at all: the sender sees the connection go
    }
    const text = await readBody(req);
    let body = text;
    try {
      body = JSON.parse(text);
    } catch {
      // kept as text
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
    const { verdict, detail } = verify([...(await fileSecrets(state.secretsFile)), ...state.secrets], text, headers);
    const events = eventsIn(body);
    const webhookId = headers['webhook-id'] ?? null;
    const failing = Math.random() < state.behaviour.failRate;
    const answered = failing ? 500 : 204;
    const duplicate = !failing && webhookId !== null && state.acceptedIds.has(webhookId);
    if (verdict !== 'ok') state.counts.unverified++;
    if (failing) state.counts.failed++;
    else {
      state.counts.accepted++;
      if (duplicate) state.counts.duplicates++;
      if (webhookId !== null) state.acceptedIds.add(webhookId);
      for (const e of events) if (typeof e.id === 'string') state.eventIds.add(e.id);
    }
    state.requests.unshift({
      seq: state.counts.received,
      at: new Date().toISOString(),
      path: p,
      headers,
      webhookId,
      types: [...new Set(events.map((e) => String(e.type)))],
      eventIds: events.map((e) => e.id).filter((id) => typeof id === 'string'),
      verdict,
      verdictDetail: detail,
      answered,
      duplicate,
      body,
    });
    state.requests.length = Math.min(state.requests.length, state.keep);
    res.writeHead(answered, { 'cache-control': 'no-store' });
    res.end();
  };

  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const p = url.pathname;
      if (req.method === 'POST' && !p.startsWith('/api/')) return await deliver(req, res, p);
      if (p === '/' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(listPage(state));
      }
      if (p === '/api/requests' && req.method === 'GET') {
        const limit = Number(url.searchParams.get('limit')) || undefined;
        return sendJson(res, 200, { items: state.requests.slice(0, limit), counts: state.counts, behaviour: state.behaviour });
      }
      if (p === '/api/requests' && req.method === 'DELETE') {
        const deleted = state.requests.length;
        Object.assign(state, { requests: [], counts: emptyCounts(), acceptedIds: new Set(), eventIds: new Set() });
        return sendJson(res, 200, { deleted });
      }
      if (p === '/api/event-ids' && req.method === 'GET') return sendJson(res, 200, { ids: [...state.eventIds] });
      if (p === '/api/secrets' && req.method === 'POST') {
        const { secret } = JSON.parse((await readBody(req)) || '{}');
        if (typeof secret !== 'string' || !secret.startsWith('whsec_'))
          return sendJson(res, 422, { code: 'validation_failed', errors: { secret: 'a whsec_ secret is required' } });
        if (!state.secrets.includes(secret)) state.secrets.push(secret);
        return sendJson(res, 200, { secrets: state.secrets.length });
      }
      if (p === '/api/behaviour' && req.method === 'POST') {
        const input = JSON.parse((await readBody(req)) || '{}');
        const errors = {};
        if (input.failRate !== undefined && !(typeof input.failRate === 'number' && input.failRate >= 0 && input.failRate <= 1))
          errors.failRate = 'a number from 0 to 1';
        if (input.downUntil !== undefined && !(Number.isFinite(input.downUntil) && input.downUntil >= 0)) errors.downUntil = 'a time in epoch milliseconds';
        if (Object.keys(errors).length) return sendJson(res, 422, { code: 'validation_failed', errors });
        Object.assign(state.behaviour, { failRate: input.failRate ?? state.behaviour.failRate, downUntil: input.downUntil ?? state.behaviour.downUntil });
        return sendJson(res, 200, state.behaviour);
      }
      return sendJson(res, 404, { message: `Nothing at ${req.method} ${p}: deliveries are POSTs to any path outside /api/` });
    } catch (err) {
      if (!res.headersSent) sendJson(res, err.status ?? (err instanceof SyntaxError ? 400 : 500), { message: err.message });
    }
  };
}

/**
 * Starts the webhook catcher on 127.0.0.1 (port 0 picks a free one). `secretsFile` is read on every delivery;
 * `secrets` are more to verify with; the last `keep` requests are kept whole (the counts and ids cover all).
 * Resolves { port, url, secretsFile, close() }.
 */
export async function startWebhookCatcher({ port = 8029, secretsFile = path.join(ROOT, '.local', 'webhooks.json'), secrets = [], keep = 500 } = {}) {
  const state = {
    secretsFile,
    secrets: [...secrets],
    keep,
    requests: [],
    counts: emptyCounts(),
    acceptedIds: new Set(),
    eventIds: new Set(),
    behaviour: { failRate: 0, downUntil: 0 },
  };
  const server = http.createServer(handler(state));
  const bound = await new Promise((resolve, reject) => {
    const onError = (err) => reject(new Error(`The webhook catcher could not listen on 127.0.0.1:${port}: ${err.message}`));
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(server.address().port);
    });
  });
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    secretsFile,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const catcher = await startWebhookCatcher({
    port: Number(process.env.WEBHOOK_PORT) || 8029,
    secretsFile: process.env.WEBHOOK_SECRETS ? path.resolve(process.env.WEBHOOK_SECRETS) : undefined,
  });
  console.log(`Webhook catcher: ${catcher.url} (POST any path), secrets from ${catcher.secretsFile}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => catcher.close().then(() => process.exit(0)));
}
