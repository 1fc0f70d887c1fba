// bench:broadcast — broadcasts to N contacts (default 10,000) through the local platform: POST /broadcast, the
// BroadcastRunner (Durable Object) paging the recipients, the send queue, the consumer rendering each message and
// sending it with our SMTP transport into a local smtp-server sink, until the broadcast reads finished. Four runs
// in one platform: the current template (8 links) and a realistic newsletter (about 60 KB of html, 40 links,
// images, a footer with the unsubscribe link), each with open and click tracking on (the default) and off, each
// twice after a warm-up run (the faster of two counts). Reports msg/s end to end for each, tracking on against off,
// the ledger bytes per recipient (messages and indexes), the D1 statements and rows written per 100 recipients and the worker
// isolate's peak heap (warm-up run), and, in the same run, the bare SMTP
// transport sending N pre-rendered messages into the same kind of sink (the limit the engine works against).
// DKIM (issue 37): the bench sender's domain is a verified sending domain with a key made and sealed like the Domain
// module's, so every run is signed, except current-on-unsigned (the same tracked broadcast with the domain
// unverified): it gives "signing on/off". The bench worker times a signature and a body hash in workerd. The last
// line is the current template with tracking on (signed).
// Run: npm run bench:broadcast [N=...] [PROFILE=<run label>, e.g. newsletter-on] [ONLY=<run label>: that run alone, no summary]
import Database from 'better-sqlite3';
import { apiRequest, closeHttp, signIn } from './support/http.mjs';
import { d1Meter } from './support/d1-meter.mjs';
import { connectInspector, printProfile, sampleHeap } from './support/inspector.mjs';
import { d1Execute, ledgerFiles, localD1File, startBenchPlatform, taggedContactsSql } from './support/platform.mjs';
import { startBenchWorker, startSink } from './smtp/harness.mjs';
import { newsletterHtml } from './broadcast/newsletter.mjs';

const N = Number(process.env.N) || 10_000;
/** The bench sender's domain, signed with DKIM (a verified sending domain) except in the unsigned run. */
const SENDING_DOMAIN = 'bench.relay.test';
const MB = (bytes) => (bytes / 1024 / 1024).toFixed(1);

/** Bytes an SQLite file keeps for the messages table and its indexes (SQLite's dbstat). */
function messageBytesIn(file) {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        "SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name = 'messages' OR name LIKE 'messages_%' OR name LIKE 'sqlite_autoindex_messages%' GROUP BY name",
      )
      .all();
    return { total: rows.reduce((s, r) => s + r.bytes, 0), rows };
  } catch (error) {
    // A ledger not made yet has no messages table.
    if (/no such table/.test(String(error))) return { total: 0, rows: [] };
    throw error;
  } finally {
    db.close();
  }
}

/** Bytes the messages and their indexes take in D1 and in the ledgers. */
function messageBytes(stateDir) {
  const d1 = messageBytesIn(localD1File(stateDir));
  const ledgers = ledgerFiles(stateDir).map(messageBytesIn);
  const rows = new Map();
  for (const r of ledgers.flatMap((l) => l.rows)) rows.set(r.name, (rows.get(r.name) ?? 0) + r.bytes);
  return { d1: d1.total, total: ledgers.reduce((s, l) => s + l.total, 0), rows: [...rows].map(([name, bytes]) => ({ name, bytes })) };
}

async function main() {
  const sink = await startSink();
  let platform = null;
  let worker = null;
  try {
    platform = await startBenchPlatform('broadcast');
    const { port, host } = platform;
    const api = async (method, path, json) => {
      const res = await apiRequest(port, host, { method, path: `/api/v1${path}`, token, json });
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    let token = await signIn(port, host);

    const started = performance.now();
    await d1Execute(platform, taggedContactsSql(N, 'Bench'));
    console.log(`seeded ${N} tagged contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const [{ id: tagId }] = await d1Execute(platform, "SELECT id FROM tags WHERE name = 'Bench'");

    // An smtp integration to the sink (which offers no AUTH: the stored user is cleared), a sender, a template.
    const integration = await api('POST', '/integration', {
      name: 'Sink',
      type: 'smtp',
      details: { server: '127.0.0.1', port: sink.port, ssl: false, tls: false, domain: 'bench.relay.test' },
      user: 'bench',
      password: 'unused',
    });
    await d1Execute(platform, `UPDATE integrations SET details = json_set(details, '$.user', NULL) WHERE id = ${integration.data.id}`);
    const sender = await api('POST', '/sender', { integration_id: integration.data.id, type: 'email', value: 'news@bench.relay.test', name: 'Bench News' });
    const current = `<h1>Hello {{ contact.name }}</h1><p>This is the monthly news from {{ organization.name }}.</p>${'<p>Some paragraph of news with a <a href="https://acme.test/offers">link</a>.</p>'.repeat(8)}<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>`;
    const templates = {
      current: (await api('POST', '/template', { type: 'email', name: 'Bench', subject: 'News for {{ contact.name }}', body: current })).data.id,
      newsletter: (await api('POST', '/template', { type: 'email', name: 'Newsletter', subject: 'Acme news for {{ contact.name }}', body: newsletterHtml() }))
        .data.id,
    };
    const subscription = await api('POST', '/subscription', { name: 'Bench news' });

    // DKIM: the domain's key made and sealed in workerd (the bench worker), then a signature and a body hash timed
    // there; the worker stops before the broadcasts run.
    worker = await startBenchWorker();
    const dkimCall = async (path, body) => (await fetch(`${worker.url}${path}`, { method: 'POST', body: JSON.stringify(body) })).json();
    const key = await dkimCall('/dkim/key', { secretsKey: platform.secretsKey });
    /** Microseconds per `op`: n of them timed from here, less a call doing none (the request's own cost). */
    const microseconds = async (op, n) => {
      await dkimCall('/dkim/time', { op, n: Math.ceil(n / 10) }); // warm: the key, the messages, the JIT
      let started = performance.now();
      await dkimCall('/dkim/time', { op, n: 0 });
      const empty = performance.now() - started;
      started = performance.now();
      const { bytes } = await dkimCall('/dkim/time', { op, n });
      return { us: (Math.max(0, performance.now() - started - empty) * 1000) / n, bytes };
    };
    const signature = await microseconds('sign', 500);
    const letterHash = await microseconds('hash-letter', 2000);
    const newsletterHash = await microseconds('hash-newsletter', 200);
    worker.stop();
    worker = null;
    console.log(
      `DKIM (rsa-sha256, 2048-bit key, in workerd): ${signature.us.toFixed(0)} µs per signature (a ${(signature.bytes / 1024).toFixed(1)} KB letter: its body hash and the RSA signature); ${letterHash.us.toFixed(1)} µs per body hash of that letter, ${newsletterHash.us.toFixed(0)} µs of the ${(newsletterHash.bytes / 1024).toFixed(0)} KB newsletter`,
    );
    const [{ org_id: orgId }] = await d1Execute(platform, `SELECT org_id FROM senders WHERE id = ${sender.data.id}`);
    await d1Execute(
      platform,
      `INSERT INTO sending_domains (org_id, domain, verification_token, verified_at, dkim_selector, dkim_public_key, dkim_private_key) VALUES (${orgId}, '${SENDING_DOMAIN}', 'bench', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'relay1', '${key.publicKey}', '${key.sealed}')`,
    );
    let signing = true;
    /** Signs the following runs (the domain verified) or not (unverified: the sender's mail goes unsigned). */
    const setSigning = async (on) => {
      if (on === signing) return;
      await d1Execute(
        platform,
        `UPDATE sending_domains SET verified_at = ${on ? "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')" : 'NULL'} WHERE domain = '${SENDING_DOMAIN}'`,
      );
      signing = on;
    };
    const inspector = await connectInspector(platform.inspectorPort);

    /** One broadcast to the N contacts until it reads finished: seconds from POST to finished. */
    const runBroadcast = async (label, templateId, tracking, signed = true) => {
      await setSigning(signed);
      const profile = process.env.PROFILE === label;
      if (profile) {
        await inspector.call('Profiler.enable');
        await inspector.call('Profiler.start');
      }
      const before = await sink.count();
      const started = performance.now();
      const created = await api('POST', '/broadcast', {
        name: `Bench ${label} ${N}`,
        type: 'email',
        sender_id: sender.data.id,
        template_id: templateId,
        subscription_id: subscription.data.id,
        track_opens: tracking,
        track_clicks: tracking,
        contacts: { filter: { tags: [tagId] } },
      });
      const id = created.data.id;
      let b = created.data;
      let lastLog = performance.now();
      while (b.status !== 'finished') {
        await new Promise((r) => setTimeout(r, 250));
        if (performance.now() - started > 15 * 60_000) throw new Error(`not finished after 15 minutes: ${JSON.stringify(b)}`);
        try {
          b = (await api('GET', `/broadcast/${id}`)).data;
        } catch (error) {
          // An access token lives 15 minutes: a long run signs in again.
          if (!String(error).includes(' 401 ')) throw error;
          token = await signIn(port, host);
        }
        if (b.status === 'paused') throw new Error(`the broadcast paused itself: ${b.paused_reason}`);
        if (performance.now() - lastLog > (Number(process.env.LOG_MS) || 5_000)) {
          lastLog = performance.now();
          console.log(
            `  ... ${label} ${((performance.now() - started) / 1000).toFixed(1)} s ${b.status}: ${b.sent} sent, ${b.failed} failed of ${b.total}${b.recipients_final ? '' : ' (still finding recipients)'}`,
          );
        }
      }
      const seconds = (performance.now() - started) / 1000;
      if (profile) printProfile((await inspector.call('Profiler.stop')).profile);
      // The sink may still be reading the last messages of a session when the broadcast reads finished.
      let delivered = (await sink.count()) - before;
      for (let i = 0; i < 20 && delivered < N; i++) {
        await new Promise((r) => setTimeout(r, 100));
        delivered = (await sink.count()) - before;
      }
      console.log(
        `${label}: ${b.sent} sent, ${b.failed} failed, ${b.skipped} skipped of ${b.total} in ${seconds.toFixed(1)} s (POST /broadcast to status finished); the sink received ${delivered}: ${Math.round(N / seconds)} msg/s${signed ? ' (DKIM signed)' : ' (unsigned)'}`,
      );
      if (b.sent !== N || delivered !== N) throw new Error(`expected ${N} sent and received, got ${b.sent} and ${delivered}`);
      return seconds;
    };

    if (process.env.ONLY) {
      const [t, tracking, unsigned] = process.env.ONLY.split('-');
      await runBroadcast(process.env.ONLY, templates[t], tracking === 'on', unsigned !== 'unsigned');
      return;
    }
    // A first run (current template, tracking on) warms the platform up and gives the memory and D1 figures; it
    // is not one of the timed runs. Then each of the four runs twice, the second round in reverse order, and each
    // keeps its faster run: the machine is shared, and a slow outlier says more about it than about the engine.
    const before = messageBytes(platform.stateDir);
    const bytesBefore = before.total;
    const heap = sampleHeap(inspector);
    await d1Meter(inspector, 'start');
    await runBroadcast('warm-up (current-on, not timed)', templates.current, true);
    const d1 = await d1Meter(inspector, 'stop');
    const peak = await heap.stop();
    const per100 = (count) => ((count * 100) / N).toFixed(1);
    // The broadcast's creation writes its activity log (a row per field, with its indexes): once per broadcast,
    // whatever its size; what the send itself writes is the rest.
    const creation = Object.entries(d1.writers ?? {})
      .filter(([statement]) => statement.includes('"activity_log"'))
      .reduce((sum, [, rows]) => sum + rows, 0);
    console.log(
      `D1 during the warm-up run (every statement the worker sent, the status polls every 250 ms included; D1's result meta): ${d1.statements} statements, ${d1.rowsWritten} rows written, ${d1.rowsRead} rows read: per 100 recipients ${per100(d1.statements)} statements, ${per100(d1.rowsWritten)} rows written, ${per100(d1.rowsRead)} rows read; of the rows written ${creation} are the activity log of the broadcast's creation (once per broadcast), the send wrote ${per100(d1.rowsWritten - creation)} per 100 recipients (goal after the ledger: at most 1)`,
    );
    const writers = Object.entries(d1.writers ?? {}).sort((a, b) => b[1] - a[1]);
    for (const [statement, rows] of writers.slice(0, 8)) console.log(`  D1 rows written by ${statement}...: ${rows}`);
    const readers = Object.entries(d1.readers ?? {}).sort((a, b) => b[1] - a[1]);
    for (const [statement, rows] of readers.slice(0, 8)) console.log(`  D1 rows read by ${statement}...: ${rows} (${per100(rows)} per 100 recipients)`);
    console.log(
      `memory (isolate): V8 heap of the worker isolate (runner, consumer and API share it under wrangler dev), ${peak.samples} samples: peak used ${MB(peak.peakUsed)} MB, peak heap size ${MB(peak.peakTotal)} MB; live after a forced GC every 2 s: peak ${MB(peak.peakLive)} MB`,
    );
    const afterFirst = messageBytes(platform.stateDir);
    const bytesAfterFirst = afterFirst.total;
    const runs = ['current-off', 'current-on', 'current-on-unsigned', 'newsletter-on', 'newsletter-off'];
    const seconds = {};
    for (const label of [...runs, ...[...runs].reverse()]) {
      const [t, tracking, unsigned] = label.split('-');
      const taken = await runBroadcast(label, templates[t], tracking === 'on', unsigned !== 'unsigned');
      seconds[label] = Math.min(seconds[label] ?? Infinity, taken);
    }
    inspector.close();
    await platform.stop({ keepState: true });
    const bytes = messageBytes(platform.stateDir);
    platform.removeState();
    platform = null;
    // Read from the running platform's file after the warm-up (WAL included): that run's rows only.
    const perRecipient = (bytesAfterFirst - bytesBefore) / N;
    console.log(
      `the ledger: the messages table and its indexes grew by ${((bytesAfterFirst - bytesBefore) / 1e6).toFixed(2)} MB in the warm-up run (dbstat page bytes): ${perRecipient.toFixed(0)} bytes per recipient (goal: at most 512); D1's messages grew by ${afterFirst.d1 - before.d1} bytes`,
    );
    for (const r of bytes.rows)
      console.log(`  ${r.name}: ${(r.bytes / ((1 + 2 * runs.length) * N)).toFixed(0)} bytes per recipient (all ${1 + 2 * runs.length} runs)`);

    // The limit: our transport alone, the same N messages pre-rendered, one connection, batches of 100 (the consumer's).
    worker = await startBenchWorker();
    const alone = performance.now();
    const res = await fetch(`${worker.url}/run`, { method: 'POST', body: JSON.stringify({ impl: 'relay', port: sink.port, n: N, connections: 1 }) });
    const result = await res.json();
    const aloneSeconds = (performance.now() - alone) / 1000;
    if (result.sent !== N) throw new Error(`the bare transport sent ${result.sent} of ${N}: ${result.firstError}`);
    console.log(`smtp transport alone: ${N} pre-rendered messages on one connection in ${aloneSeconds.toFixed(1)} s`);

    const limit = N / aloneSeconds;
    const rate = (label) => N / seconds[label];
    const ours = rate('current-on');
    const met = (ok) => (ok ? 'met' : 'NOT met');
    // Signing on/off: the same tracked broadcast of the current template with and without the verified domain.
    const signedRatio = ours / rate('current-on-unsigned');
    for (const t of ['current', 'newsletter']) {
      const on = rate(`${t}-on`);
      const off = rate(`${t}-off`);
      const signingFigure =
        t === 'current'
          ? `; signing on/off ${signedRatio.toFixed(2)} (unsigned ${Math.round(rate('current-on-unsigned'))} msg/s; goal at least 0.6: ${met(signedRatio >= 0.6)})`
          : '';
      console.log(
        `${t} template (DKIM signed): tracking on ${Math.round(on)} msg/s, off ${Math.round(off)} msg/s, on/off ${(on / off).toFixed(2)} (goal at least 0.9: ${met(on / off >= 0.9)}); on against the transport ${(on / limit).toFixed(2)}${signingFigure}`,
      );
    }
    console.log(
      `goals (tracking and DKIM signing on, current template): at least 1500 msg/s end to end: ${met(ours >= 1500)}; ratio at least 0.45: ${met(ours / limit >= 0.45)}; signing on/off at least 0.6: ${met(signedRatio >= 0.6)}`,
    );
    console.log(`broadcast: ${Math.round(ours)} msg/s | smtp transport alone: ${Math.round(limit)} msg/s | ratio ${(ours / limit).toFixed(2)}`);
  } finally {
    closeHttp();
    worker?.stop();
    if (platform) await platform.stop();
    sink.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
