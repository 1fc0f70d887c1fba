// bench:erase — a person's export and erasure (issue 40) at size. Organisation `acme` has N archived messages
// (default 1,000,000) over the 12 months before its retention line, in R2 archive objects as the archive path writes
// them (erase/fill.mjs), and N/10 in its ledger (the 90 days of retention), to 100,000 contacts (the mix of
// broadcasts and transactional mail: erase/plan.mjs). The person to erase has N/100 messages (10,000: a tenth in the
// ledger), a second contact a tenth of that; organisation `beta` has N/20 archived and N/100 in its ledger, and the
// same person (same address) as a contact with messages of its own, which must stay whole.
// Measured: both exports of acme's contacts (JSON, read as a stream; the isolate's heap through the inspector), then
// the erasure's wall time (POST /contact/{id}/erase) and its answer; every R2 object's etag, version and upload time
// before and after (which objects were written again: exactly those that held the person, none of beta's); the
// person's address and name searched in every archive object and in both ledgers after.
// Goals: erase within 60 s; only the objects holding the person rewritten; the export's live heap flat (the larger
// export's peak within 4 MB of the smaller's, ten times fewer messages). Prints `NOT met` beside a missed goal; last line:
// erase: <s> s | archive objects rewritten <k> of <n> | export heap <mb> MB
// Run: npm run bench:erase [N=1000000]
import Database from 'better-sqlite3';
import { SEED_USER } from '../../scripts/lib/seed-data.mjs';
import { archiveChunkSize, chunksOf } from './erase/chunks.mjs';
import { measureExport } from './erase/export-stream.mjs';
import { addArchive, addContacts, addLedgerMessages, openLocalFiles } from './erase/fill.mjs';
import { archiveText, changedKeys, objectStates, occurrences } from './erase/local-r2.mjs';
import { describeMix, messagesOf, planMessages } from './erase/plan.mjs';
import { rowTemplate } from './erase/rows.mjs';
import { apiRequest, closeHttp, signIn } from './support/http.mjs';
import { connectInspector } from './support/inspector.mjs';
import { findWorkerdPids } from './support/memory.mjs';
import { d1Execute, ledgerFiles, localD1File, startBenchPlatform } from './support/platform.mjs';
import './support/ts-source.mjs';

const { DEFAULT_RETENTION_DAYS } = await import('../../src/modules/retention/policy.ts');

const N = Number(process.env.N) || 1_000_000;
const ERASE_GOAL_S = 60;
const HEAP_GOAL_MB = 4;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const MB = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const count = (n) => n.toLocaleString('en');
const met = (ok) => (ok ? 'met' : 'NOT met');

const ERIKA = { name: 'Erika Mustermann', address: 'erika.mustermann@example.com' };
const JONAS = { name: 'Jonas Becker', address: 'jonas.becker@example.com' };
/** Each organisation: its contacts, archived and ledger messages, broadcasts a year, and the persons followed. */
const ORGS = {
  acme: {
    pool: 100_000,
    archived: N,
    ledger: Math.round(N / 10),
    broadcasts: 48,
    persons: [
      { ...ERIKA, messages: Math.round(N / 100) },
      { ...JONAS, messages: Math.max(200, Math.round(N / 1000)) },
    ],
  },
  beta: {
    pool: 10_000,
    archived: Math.round(N / 20),
    ledger: Math.round(N / 100),
    broadcasts: 12,
    persons: [{ ...ERIKA, messages: Math.max(200, Math.round(N / 1000)) }],
  },
};
/** A person's messages in the ledger (the rest are archived). */
const LEDGER_SHARE = 0.1;
const BROADCAST_SHARE = 0.72;

/** Organisation `beta` with a user whose password is acme's user's (copied hash). */
const betaSql = `INSERT INTO organizations (name, domain) VALUES ('Beta Ltd', 'beta');
  INSERT INTO users (org_id, name, username, email, password_hash)
  SELECT (SELECT id FROM organizations WHERE domain = 'beta'), 'Beta admin', 'admin@beta.test', 'admin@beta.test', password_hash
  FROM users WHERE username = 'admin@acme.test';`;

async function signInAs(platform, domain, username) {
  const host = `${domain}.localhost:${platform.port}`;
  const res = await apiRequest(platform.port, host, {
    method: 'POST',
    path: '/api/v1/internal-auth/token-create',
    json: { username, password: SEED_USER.password },
  });
  if (res.status !== 200) throw new Error(`${domain}: sign-in failed ${res.status} ${JSON.stringify(res.body)}`);
  return { host, token: res.body.access_token };
}

/** Each organisation's ledger file, by the owner it records. */
function ledgerFileOf(stateDir, orgId) {
  for (const file of ledgerFiles(stateDir)) {
    const db = new Database(file, { readonly: true });
    try {
      if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'ledger_owner'").get() && db.prepare('SELECT org_id FROM ledger_owner').get()?.org_id === orgId)
        return file;
    } finally {
      db.close();
    }
  }
  throw new Error(`no ledger of organisation ${orgId}`);
}

/** Plans, then writes, one organisation's data; answers what the checks need. */
async function fillOrganisation({ platform, files, domain, orgId, spec, now, retentionDays, seed }) {
  const started = performance.now();
  const d1File = localD1File(platform.stateDir);
  const ledgerFile = ledgerFileOf(platform.stateDir, orgId);
  const cutoff = now - retentionDays * DAY;
  const ledgerPersons = spec.persons.map((p) => ({ messages: Math.round(p.messages * LEDGER_SHARE) }));
  const archivePlan = planMessages({
    from: cutoff - 365 * DAY,
    to: cutoff - HOUR,
    total: spec.archived,
    broadcasts: spec.broadcasts,
    broadcastShare: BROADCAST_SHARE,
    pool: spec.pool,
    persons: spec.persons.map((p, i) => ({ messages: p.messages - ledgerPersons[i].messages })),
    seed,
  });
  const ledgerPlan = planMessages({
    from: cutoff + HOUR,
    to: now - HOUR,
    total: spec.ledger,
    // A quarter of the year's broadcasts: the ledger holds 90 days.
    broadcasts: spec.broadcasts / 4,
    broadcastShare: BROADCAST_SHARE,
    pool: spec.pool,
    persons: ledgerPersons,
    seed: seed + 1,
  });
  const { contactOf, persons } = addContacts(d1File, orgId, spec.pool, `${domain}-people.example`, spec.persons);
  const messageTemplate = rowTemplate(ledgerFile, 'messages', { org_id: 0, type: 'email', from_address: '', to_address: '', body: '' });
  const eventTemplate = rowTemplate(ledgerFile, 'tracking_events', { id: '', org_id: 0, message_id: 0, kind: '', class: '', reason: '', method: '', at: '' });
  const org = { orgId, domain: `${domain}.test`, contactOf, persons, seed, messageTemplate, eventTemplate };
  addLedgerMessages(ledgerFile, ledgerPlan, { ...org, firstId: spec.archived + 1, broadcastBase: 2000 });
  const chunks = chunksOf(archivePlan, archiveChunkSize());
  const archive = await addArchive({
    bucket: files.bucket,
    d1File,
    ledgerFile,
    plan: archivePlan,
    chunks,
    org: { ...org, firstId: 1, broadcastBase: 1000 },
    retentionDays,
    secretsKey: platform.secretsKey,
    persons,
  });
  console.log(
    `${domain}: ${count(spec.pool + persons.length)} contacts, ${count(spec.ledger)} messages in the ledger, ${count(spec.archived)} archived in ` +
      `${count(chunks.length)} objects (${MB(archive.bytes)} MB gzip, ${count(archive.holders)} index rows), written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  persons.forEach((person, p) => {
    console.log(`  ${person.name} <${person.address}> (contact ${person.id}): ledger ${describeMix(ledgerPlan.mixes[p])}`);
    console.log(`    archived ${describeMix(archivePlan.mixes[p])}; in ${count(archive.holding[p].size)} of the ${count(chunks.length)} objects`);
    const bare = messagesOf(archivePlan, p).filter((i) => archivePlan.bare[i] > 0).length;
    console.log(`    ${count(bare)} of the archived ones to the bare address (no contact)`);
  });
  return { ledgerFile, persons, archive, ledgerPlan, archivePlan, ledgerCounts: ledgerPersons.map((p) => p.messages) };
}

/** Messages in a ledger file still naming the person (address in any case, or name). */
function ledgerMentions(ledgerFile, person) {
  const db = new Database(ledgerFile, { readonly: true });
  try {
    const like = (s) => `%${s.toLowerCase()}%`;
    return db
      .prepare(`SELECT
          (SELECT count(*) FROM messages WHERE lower(to_address) = ? OR contact_name = ? OR lower(coalesce(body, '')) LIKE ? OR lower(coalesce(error, '')) LIKE ?) AS messages,
          (SELECT count(*) FROM events WHERE lower(data) LIKE ? OR lower(data) LIKE ?) AS events`)
      .get(person.address, person.name, like(person.name), like(person.address), like(person.address), like(person.name));
  } finally {
    db.close();
  }
}

function printExport(label, e, expected) {
  const ok = e.messages === expected.ledger && e.archived === expected.archived;
  console.log(
    `export ${label}: ${count(e.messages)} ledger + ${count(e.archived)} archived messages (expected ${count(expected.ledger)} + ${count(expected.archived)}${ok ? '' : ', NOT met'}), ` +
      `${MB(e.bytes)} MB in ${count(e.chunks)} chunks, first byte ${e.ttfbMs.toFixed(0)} ms, all ${(e.ms / 1000).toFixed(2)} s; ` +
      `live heap ${MB(e.idleHeap)} MB before, peak ${MB(e.peakLive)} MB (${e.liveSamples} samples after a collection), used heap peak ${MB(e.peakUsed)} MB; ` +
      `workerd RSS ${MB(e.rssBeforeKb * 1024)} -> peak ${MB(e.peakRssKb * 1024)} MB`,
  );
  return ok;
}

async function main() {
  let platform = await startBenchPlatform('erase', { logLevel: 'warn' });
  let inspector = null;
  try {
    await d1Execute(platform, betaSql);
    const [{ acme, beta }] = await d1Execute(
      platform,
      "SELECT (SELECT id FROM organizations WHERE domain = 'acme') AS acme, (SELECT id FROM organizations WHERE domain = 'beta') AS beta",
    );
    // Each organisation's ledger is made by its first use (the message list), before its file is filled.
    for (const [domain, username] of [
      ['acme', SEED_USER.username],
      ['beta', 'admin@beta.test'],
    ]) {
      const { host, token } = await signInAs(platform, domain, username);
      const res = await apiRequest(platform.port, host, { path: '/api/v1/message?page_size=1', token });
      if (res.status !== 200) throw new Error(`${domain} GET /message: ${res.status}`);
    }
    await platform.stop({ keepState: true });

    const now = Date.now();
    const files = await openLocalFiles(platform.stateDir);
    let filled;
    try {
      const common = { platform, files, now, retentionDays: DEFAULT_RETENTION_DAYS };
      filled = {
        acme: await fillOrganisation({ ...common, domain: 'acme', orgId: acme, spec: ORGS.acme, seed: 40 }),
        beta: await fillOrganisation({ ...common, domain: 'beta', orgId: beta, spec: ORGS.beta, seed: 4040 }),
      };
    } finally {
      await files.close();
    }
    const bucketName = files.name;

    platform = await platform.restart();
    const token = await signIn(platform.port, platform.host);
    const [erika, jonas] = filled.acme.persons;
    const archivedOf = (o, p) => [...filled[o].archive.holding[p].values()].reduce((s, n) => s + n, 0);

    // The exports first (the erasure removes the contact): the smaller contact, then the person.
    inspector = await connectInspector(platform.inspectorPort);
    const workerdPids = findWorkerdPids(platform.child.pid);
    const exports = {};
    for (const [label, person, p] of [
      ['small', jonas, 1],
      ['person', erika, 0],
    ]) {
      exports[label] = await measureExport({ platform, token, contactId: person.id, inspector, workerdPids });
      exports[label].complete = printExport(`${label} (${person.name})`, exports[label], {
        ledger: filled.acme.ledgerCounts[p],
        archived: archivedOf('acme', p),
      });
    }

    const before = objectStates(platform.stateDir, 'orgs/');
    const started = performance.now();
    const res = await apiRequest(platform.port, platform.host, {
      method: 'POST',
      path: `/api/v1/contact/${erika.id}/erase`,
      token,
      json: { confirm: erika.address },
    });
    const eraseS = (performance.now() - started) / 1000;
    if (res.status !== 200) throw new Error(`POST /contact/${erika.id}/erase: ${res.status} ${JSON.stringify(res.body)}`);
    const answer = res.body.data;
    console.log(`erase answered in ${eraseS.toFixed(2)} s: ${JSON.stringify(answer)}`);
    const after = objectStates(platform.stateDir, 'orgs/');

    // Which objects were written again, against which held the person (from the plan).
    const acmePrefix = `orgs/${acme}/archive/`;
    const betaPrefix = `orgs/${beta}/archive/`;
    const acmeKeys = [...before.keys()].filter((k) => k.startsWith(acmePrefix));
    const betaKeys = [...before.keys()].filter((k) => k.startsWith(betaPrefix));
    const holding = new Set(filled.acme.archive.holding[0].keys());
    const changed = new Set(changedKeys(before, after));
    const changedAcme = acmeKeys.filter((k) => changed.has(k));
    const strays = changedAcme.filter((k) => !holding.has(k));
    const missed = [...holding].filter((k) => !changed.has(k));
    const betaChanged = betaKeys.filter((k) => changed.has(k));
    const otherChanged = [...changed].filter((k) => !k.startsWith(acmePrefix) && !k.startsWith(betaPrefix));
    const onlyHolders = strays.length === 0 && missed.length === 0 && betaChanged.length === 0;
    console.log(
      `R2 before and after (etag, version, upload time): acme ${count(changedAcme.length)} of ${count(acmeKeys.length)} objects written again; ` +
        `${count(holding.size)} held the person; written but not holding ${strays.length}, holding but not written ${missed.length}; ` +
        `beta ${betaChanged.length} of ${count(betaKeys.length)}; other objects ${otherChanged.length}`,
    );
    console.log(
      `the erasure's answer: ${count(answer.archive_objects_rewritten)} of ${count(answer.archive_objects_total)} objects rewritten, ` +
        `${count(answer.archived_messages)} archived messages (planned ${count(archivedOf('acme', 0))}), ${count(answer.messages)} in the ledger (planned ${count(filled.acme.ledgerCounts[0])})`,
    );

    // The person searched for in every archive object of both organisations, and in both ledgers.
    const needles = [erika.address, erika.name.toLowerCase()];
    const mentionsIn = (keys) => keys.reduce((s, k) => s + occurrences(archiveText(platform.stateDir, bucketName, after.get(k)), needles), 0);
    const acmeLeft = mentionsIn(acmeKeys);
    const betaHolding = [...filled.beta.archive.holding[0].keys()];
    const betaLeft = mentionsIn(betaHolding);
    const acmeLedger = ledgerMentions(filled.acme.ledgerFile, erika);
    const betaLedger = ledgerMentions(filled.beta.ledgerFile, filled.beta.persons[0]);
    const nowhere = acmeLeft === 0 && acmeLedger.messages === 0 && acmeLedger.events === 0;
    console.log(
      `the person's address and name after: in acme's ${count(acmeKeys.length)} objects ${acmeLeft} times, in its ledger ${acmeLedger.messages} messages and ${acmeLedger.events} events` +
        `${nowhere ? '' : ' (NOT met)'}; in beta (untouched): ${count(betaLeft)} times in its ${betaHolding.length} objects holding them, ${count(betaLedger.messages)} ledger messages`,
    );

    const heapGrowth = (exports.person.peakLive - exports.small.peakLive) / 1024 / 1024;
    const flat = heapGrowth <= HEAP_GOAL_MB;
    console.log(`\ngoals:`);
    console.log(`  erase within ${ERASE_GOAL_S} s: ${eraseS.toFixed(2)} s (${met(eraseS <= ERASE_GOAL_S)})`);
    console.log(
      `  only the objects holding the person rewritten: ${count(changedAcme.length)} written, ${count(holding.size)} holding, beta ${betaChanged.length} (${met(onlyHolders && answer.archive_objects_rewritten === holding.size)})`,
    );
    console.log(
      `  export heap flat: live peak ${MB(exports.person.peakLive)} MB for ${count(exports.person.messages + exports.person.archived)} messages ` +
        `(${MB(exports.person.bytes)} MB of JSON) against ${MB(exports.small.peakLive)} MB for ${count(exports.small.messages + exports.small.archived)}: ` +
        `${heapGrowth.toFixed(1)} MB more, at most ${HEAP_GOAL_MB} (${met(flat)})`,
    );
    console.log(`  exports complete: ${met(exports.small.complete && exports.person.complete)}; the person nowhere in acme after: ${met(nowhere)}`);
    console.log(
      `erase: ${eraseS.toFixed(1)} s | archive objects rewritten ${answer.archive_objects_rewritten} of ${answer.archive_objects_total} | export heap ${MB(exports.person.peakLive)} MB`,
    );
  } finally {
    inspector?.close();
    closeHttp();
    await platform.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
