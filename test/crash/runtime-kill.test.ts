import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requestWithHost } from '../../scripts/lib/http.mjs';
import { startPlatform, type RunningPlatform } from '../../scripts/lib/platform.mjs';
import { SEED_ORG, SEED_USER } from '../../scripts/lib/seed-data.mjs';
import { DEFAULT_LEASE_MS } from '../../src/modules/sending/lease';
import { BATCH_SIZE } from '../../src/modules/sending/send-queue';

// Broadcasts whose sending is killed, against a real SMTP server on loopback that records every Message-ID it
// accepts and when. One platform, one seeded state, two shapes of death:
// - Production's shape: only the consumer's isolate dies mid-batch and the queue keeps its messages
//   (FAULT_CONSUMER_DIES_AFTER, src/modules/sending/consumer-death.ts: workerd cannot kill one isolate). What the
//   dead deliveries held waits for its lease (lease.ts); sending must resume within the lease + 15 s.
// - The local platform's: the whole runtime (wrangler and workerd) killed with SIGKILL at random points of a
//   5,000-recipient broadcast, five times, and started again on the same state. Its queue dies with it; the boot
//   epoch (QUEUE_LOST_BEFORE, src/modules/sending/queue-epoch.ts) makes the runner take back at once what the queue
//   held, so after every restart the first message must go within 15 s of the platform being up, nobody touching
//   it, and after the last the broadcast must finish within 60 s of it.
// Both: every recipient mailed, and no more duplicates than the README's bound (per death: the send lanes in flight
// times a batch). The consumer's death runs on a lease shortened to 10 s (SEND_LEASE_SECONDS), so it fits in the
// suite; the restarted runtimes run on the default lease (60 s), where the lease rules alone would leave the queued
// rows waiting two leases: what the boot epoch is for. Times are measured from the platform being up (or the
// death), never from the kill: a loaded machine's slow start is not the recovery's.

const RECIPIENTS = 5000;
/** The consumer-only death's broadcast: what one consumer invocation holds (its 8 lanes, a batch each). */
const SMALL = 800;
const KILLS = 5;
/** The integration's send limit: slow enough that the kills and the death land while the broadcast is still sending. */
const MAX_RATE = 100;
/** The consumer's isolate dies once it has sent this many messages (FAULT_CONSUMER_DIES_AFTER). */
const DIES_AFTER = 200;
const LEASE_S = 10;
/** Send lanes per consumer invocation (queues/dispatch.ts SEND_CONCURRENCY); locally one invocation runs at a time. */
const LANES = 8;
/** Per lane at most a batch: what arrived in the last report interval plus four groups (README: the duplicate bound). */
const DUPLICATE_BOUND_PER_KILL = LANES * BATCH_SIZE;
const FIRST_SEND_AFTER_RESTART_MS = 15_000;
const FINISHED_AFTER_RESTART_MS = 60_000;
const RESUMED_AFTER_DEATH_MS = LEASE_S * 1000 + 15_000;
const THREE_MINUTES = 180_000;

/** Every message the server accepted: its Message-ID, recipient and arrival time. */
const mails: { id: string; to: string; at: number }[] = [];

function startCountingSmtp(): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    onAuth: (_auth, _session, done) => done(null, { user: 'crash' }),
    onData(stream, session, done) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 4096) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^message-id:\s*(\S+)/im.exec(head)?.[1] ?? `none-${mails.length}`;
        for (const to of session.envelope.rcptTo) mails.push({ id, to: to.address.toLowerCase(), at: Date.now() });
        done();
      });
    },
  });
  // A killed runtime resets its connections: that is the test, not an error of the server.
  server.on('error', () => {});
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve({ port: typeof address === 'object' && address ? address.port : 0, close: () => new Promise<void>((r) => server.close(() => r())) });
    });
  });
}

/** What the server received for the recipients whose address ends with `domain`. */
function received(domain: string) {
  const mine = mails.filter((m) => m.to.endsWith(domain));
  const byId = new Map<string, number>();
  for (const m of mine) byId.set(m.id, (byId.get(m.id) ?? 0) + 1);
  return { mails: mine, unique: byId.size, duplicates: mine.length - byId.size, recipients: new Set(mine.map((m) => m.to)) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('broadcasts whose sending is killed: the consumer alone, and the whole local runtime five times', () => {
  const state = mkdtempSync(path.join(os.tmpdir(), 'relay-crash-'));
  const logDir = path.resolve(import.meta.dirname, '../../test-results');
  const logFile = path.join(logDir, 'crash-wrangler.log');
  const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), SECRETS_KEY: `crash:${randomBytes(32).toString('hex')}`, SEND_LEASE_SECONDS: String(LEASE_S) };
  const host = `${SEED_ORG.domain}.localhost`;
  const run = Date.now().toString(36);
  let smtp: Awaited<ReturnType<typeof startCountingSmtp>>;
  let platform: RunningPlatform;
  let port = 0;
  let token = '';
  let integrationId = 0;
  let senderId = 0;
  let templateId = 0;
  const tags: { big?: number; small?: number } = {};
  /** How long each start took (ms), for the log. */
  const startTimes: number[] = [];

  /**
   * Starts the platform on the state and answers when it is up (its boot epoch set by startPlatform). `again`: a
   * restart on the state the first start migrated and seeded, so only wrangler dev starts.
   */
  const start = async (vars: Record<string, string> = {}, again = false) => {
    const begun = Date.now();
    platform = await startPlatform({
      port,
      persistTo: path.join(state, 'wrangler'),
      vars: { ...secrets, ...vars },
      catchers: { smtpPort: smtp.port },
      logFile,
      quiet: true,
      restart: again,
    });
    const up = Date.now();
    startTimes.push(up - begun);
    return up;
  };
  const kill = async () => {
    process.kill(-platform.child.pid!, 'SIGKILL');
    await new Promise((r) => (platform.child.exitCode !== null || platform.child.signalCode !== null ? r(null) : platform.child.once('exit', r)));
    await platform.stop();
  };
  const api = async (method: string, urlPath: string, json?: unknown) => {
    const res = await requestWithHost(port, host, method, `/api/v1${urlPath}`, {
      json,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      timeoutMs: 30_000,
    });
    const body = res.body ? JSON.parse(res.body) : null;
    if (res.status >= 300) throw new Error(`${method} ${urlPath}: ${res.status} ${res.body.slice(0, 300)}`);
    return body;
  };
  const progress = async (id: number) =>
    (await api('GET', `/broadcast/${id}`)).data as { status: string; sent: number; failed: number; skipped: number; total: number };
  const eventually = async <T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs: number, everyMs = 1000): Promise<T> => {
    const until = Date.now() + timeoutMs;
    let last: T | undefined;
    for (;;) {
      try {
        last = await read();
        if (done(last)) return last;
      } catch {
        // the platform is still starting
      }
      if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs / 1000} s (last: ${JSON.stringify(last)})`);
      await sleep(everyMs);
    }
  };
  /** The audiences, each `count` contacts at p<i>.<run>@<domain> tagged `tag`, in one import; answers the tags' ids. */
  const importAudiences = async (audiences: { count: number; domain: string; tag: string }[]) => {
    const rows = audiences.flatMap(({ count, domain, tag }) => Array.from({ length: count }, (_, i) => `Person ${i},p${i}.${run}@${domain},${tag}`));
    const uploaded = await fetch(`http://127.0.0.1:${port}/api/v1/import/upload?file_name=crash.csv`, {
      method: 'POST',
      headers: { 'x-org': SEED_ORG.domain, authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: ['name,email,tags', ...rows].join('\n'),
    });
    expect(uploaded.status).toBe(201);
    const { file_key } = ((await uploaded.json()) as { data: { file_key: string } }).data;
    const started = await api('POST', '/import', {
      file_key,
      file_name: 'crash.csv',
      mapping: [
        { column: 0, target: 'name' },
        { column: 1, target: 'address', address_type: 'email' },
        { column: 2, target: 'tags' },
      ],
    });
    await eventually(
      'the import',
      async () => (await api('GET', `/import/${started.data.id}`)).data.status,
      (s) => s === 'success',
      120_000,
    );
    return Promise.all(audiences.map(async ({ tag }) => (await api('GET', `/tag?search=${tag}`)).items[0].id as number));
  };
  const startBroadcast = async (name: string, tag: number) =>
    (
      await api('POST', '/broadcast', {
        name: `${name} ${run}`,
        type: 'email',
        sender_id: senderId,
        template_id: templateId,
        do_not_unsubscribe: true,
        contacts: { filter: { tags: [tag] } },
      })
    ).data.id as number;
  const expectAllMailed = (domain: string, count: number) => {
    const got = received(`@${domain}`);
    const expected = Array.from({ length: count }, (_, i) => `p${i}.${run}@${domain}`);
    expect(expected.filter((address) => !got.recipients.has(address))).toEqual([]);
    expect(got.unique).toBe(count);
    return got;
  };

  beforeAll(async () => {
    const begun = Date.now();
    mkdirSync(logDir, { recursive: true });
    rmSync(logFile, { force: true });
    smtp = await startCountingSmtp();
    port = await freePort(8795);
    // The first runtime's consumer isolate dies once, in the first broadcast; every later runtime is started without the fault.
    await start({ FAULT_CONSUMER_DIES_AFTER: String(DIES_AFTER) });
    token = (await api('POST', '/internal-auth/token-create', { username: SEED_USER.username, password: SEED_USER.password })).access_token;
    [tags.small, tags.big] = await importAudiences([
      { count: SMALL, domain: 'small.crash.test', tag: `crash-small-${run}` },
      { count: RECIPIENTS, domain: 'crash.test', tag: `crash-big-${run}` },
    ]);
    console.log(`set up in ${((Date.now() - begun) / 1000).toFixed(0)} s (the platform's first start ${(startTimes[0] / 1000).toFixed(0)} s)`);
    // The seeded SMTP integration (pointed at our server) with a send limit, its sender, and a template.
    const integration = (await api('GET', '/integration?type=smtp')).items[0];
    integrationId = integration.id;
    await api('PATCH', `/integration/${integrationId}/smtp`, { max_rate: MAX_RATE });
    senderId = (await api('GET', `/sender?type=email&integration_id=${integrationId}`)).items[0].id;
    templateId = (
      await api('POST', '/template', { type: 'email', name: `Crash ${run}`, subject: 'Hello {{ contact.name }}', body: '<p>Hello {{ contact.name }}</p>' })
    ).data.id;
  }, 300_000);

  afterAll(async () => {
    await platform?.stop();
    await smtp?.close();
    rmSync(state, { recursive: true, force: true });
  });

  it(`a consumer isolate killed mid-batch with the queue intact: sending resumes within the lease + 15 s, ${SMALL} mailed once`, async () => {
    const domain = '@small.crash.test';
    const id = await startBroadcast('Consumer death', tags.small!);
    // The death: once the isolate sent DIES_AFTER, every delivery in flight stops dead (the runtime says so in its log).
    const diedAt = (
      await eventually(
        'the death',
        () => received(domain).mails,
        (m) => m.length >= DIES_AFTER,
        THREE_MINUTES,
        50,
      )
    )[DIES_AFTER - 1].at;
    // Each lane in flight ends the chunk it had reserved (10 messages, under the send limit); the first message after
    // that is the resumed sending.
    const STRAGGLERS_MS = 2_000;
    const resumed = await eventually(
      'sending again after the death',
      () => received(domain).mails.find((m) => m.at > diedAt + STRAGGLERS_MS),
      (m) => m !== undefined,
      THREE_MINUTES,
      100,
    );
    const done = await eventually(
      'finished',
      () => progress(id),
      (b) => b.status === 'finished',
      THREE_MINUTES,
    );
    const got = received(domain);
    const resumedAfter = resumed!.at - diedAt;
    console.log(
      `consumer death after ${DIES_AFTER} sent: sending again ${(resumedAfter / 1000).toFixed(1)} s later (bound ${RESUMED_AFTER_DEATH_MS / 1000} s); ` +
        `finished ${((Date.now() - diedAt) / 1000).toFixed(0)} s after it; server received ${got.mails.length}, ${got.unique} unique, ${got.duplicates} duplicates (bound ${DUPLICATE_BOUND_PER_KILL})`,
    );
    expect(readFileSync(logFile, 'utf8')).toContain('consumer isolate died');
    expect(done).toMatchObject({ status: 'finished', total: SMALL, sent: SMALL, failed: 0, skipped: 0 });
    expectAllMailed('small.crash.test', SMALL);
    expect(got.duplicates).toBeLessThanOrEqual(DUPLICATE_BOUND_PER_KILL);
    expect(resumedAfter).toBeLessThanOrEqual(RESUMED_AFTER_DEATH_MS);
  });

  it(
    `the whole runtime killed ${KILLS} times in ${RECIPIENTS} recipients: the first send within 15 s of each restart, finished within 60 s of the last, duplicates within ${DUPLICATE_BOUND_PER_KILL} per kill`,
    async () => {
      const domain = '@crash.test';
      const only = (m: { to: string }) => m.to.endsWith(domain) && !m.to.endsWith('@small.crash.test');
      const mine = () => {
        const list = mails.filter(only);
        return { list, unique: new Set(list.map((m) => m.id)).size };
      };
      const id = await startBroadcast('Crash', tags.big!);
      const log: string[] = [];
      let upAt = 0;
      for (let k = 1; k <= KILLS; k++) {
        // Let it send a while (a random point), then kill everything.
        const before = mine().unique;
        await eventually(
          `sending before kill ${k}`,
          () => mine().unique,
          (n) => n >= Math.min(RECIPIENTS, before + 50),
          THREE_MINUTES,
        );
        await sleep(500 + Math.random() * 4000);
        const atKill = await progress(id);
        await kill();
        const killedAt = mine().list.length;
        upAt = await start({ SEND_LEASE_SECONDS: String(DEFAULT_LEASE_MS / 1000) }, true);
        // Nobody touches it: it must move again by itself, soon.
        const first = await eventually(
          `a send after restart ${k}`,
          () => mine().list[killedAt],
          (m) => m !== undefined,
          THREE_MINUTES,
          100,
        );
        const firstAfter = first!.at - upAt;
        log.push(
          `kill ${k}: recorded sent ${atKill.sent}, server had ${mine().unique} unique; restart ${(startTimes.at(-1)! / 1000).toFixed(0)} s; first send ${(firstAfter / 1000).toFixed(1)} s after the platform was up`,
        );
        expect(firstAfter, log.join('\n')).toBeLessThanOrEqual(FIRST_SEND_AFTER_RESTART_MS);
        // The last leg without the send limit, which was only there so the kills land mid-send: the recovery's time, not the limit's pace.
        if (k === KILLS) await api('PATCH', `/integration/${integrationId}/smtp`, { max_rate: null });
      }
      const done = await eventually(
        'finished after the last restart',
        () => progress(id),
        (b) => b.status === 'finished',
        THREE_MINUTES,
      );
      const finishedAfter = Date.now() - upAt;
      const got = mine();
      const duplicates = got.list.length - got.unique;
      console.log(
        [
          ...log,
          `finished ${(finishedAfter / 1000).toFixed(0)} s after the last restart was up; server received ${got.list.length}, ${got.unique} unique, ${duplicates} duplicates (bound ${KILLS * DUPLICATE_BOUND_PER_KILL})`,
        ].join('\n'),
      );
      expect(done).toMatchObject({ status: 'finished', total: RECIPIENTS, sent: RECIPIENTS, failed: 0, skipped: 0 });
      const expected = Array.from({ length: RECIPIENTS }, (_, i) => `p${i}.${run}@crash.test`);
      const recipients = new Set(got.list.map((m) => m.to));
      expect(expected.filter((address) => !recipients.has(address))).toEqual([]);
      expect(got.unique).toBe(RECIPIENTS);
      expect(duplicates).toBeLessThanOrEqual(KILLS * DUPLICATE_BOUND_PER_KILL);
      expect(finishedAfter).toBeLessThanOrEqual(FINISHED_AFTER_RESTART_MS);
    },
    30 * 60_000,
  );
});
