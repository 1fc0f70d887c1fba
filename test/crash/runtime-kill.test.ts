import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requestWithHost } from '../../scripts/lib/http.mjs';
import { startPlatform, type RunningPlatform } from '../../scripts/lib/platform.mjs';
import { SEED_ORG, SEED_USER } from '../../scripts/lib/seed-data.mjs';
import { BATCH_SIZE } from '../../src/modules/sending/send-queue';

// The whole local runtime (wrangler and workerd) killed with SIGKILL at random points of a 5,000-recipient broadcast,
// five times, and started again on the same state each time, with a real SMTP server on loopback that records every
// Message-ID it accepts. After each restart the broadcast must move again without anyone touching it (the watchdog
// cron the platform calls at boot pokes its runner; the runner puts back the rows whose claim's lease ran out and
// those whose queue message died with the runtime), and after the last it must finish within 3 minutes: every
// recipient mailed, and no more duplicates than the README's bound (per kill: the send lanes in flight times
// a batch). The lease is shortened to 10 s (SEND_LEASE_SECONDS) so five recoveries fit in the suite.

const RECIPIENTS = 5000;
const KILLS = 5;
/** The integration's send limit: slow enough that five kills land while the broadcast is still sending. */
const MAX_RATE = 100;
/** Send lanes per consumer invocation (queues/dispatch.ts SEND_CONCURRENCY); locally one invocation runs at a time. */
const LANES = 8;
/** Per lane at most a batch: what arrived in the last report interval plus four groups (README: the duplicate bound). */
const DUPLICATE_BOUND_PER_KILL = LANES * BATCH_SIZE;
const THREE_MINUTES = 180_000;

/** Every message the server accepted, by Message-ID, and the recipients it went to. */
const accepted = new Map<string, number>();
const recipients = new Set<string>();

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
        const id = /^message-id:\s*(\S+)/im.exec(head)?.[1] ?? `none-${accepted.size}`;
        accepted.set(id, (accepted.get(id) ?? 0) + 1);
        for (const to of session.envelope.rcptTo) recipients.add(to.address.toLowerCase());
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the local runtime killed mid-broadcast, five times', () => {
  const state = mkdtempSync(path.join(os.tmpdir(), 'relay-crash-'));
  const logDir = path.resolve(import.meta.dirname, '../../test-results');
  const vars = { JWT_SECRET: randomBytes(32).toString('hex'), SECRETS_KEY: `crash:${randomBytes(32).toString('hex')}`, SEND_LEASE_SECONDS: '10' };
  const host = `${SEED_ORG.domain}.localhost`;
  let smtp: Awaited<ReturnType<typeof startCountingSmtp>>;
  let platform: RunningPlatform;
  let port = 0;
  let token = '';

  const start = async () => {
    platform = await startPlatform({
      port,
      persistTo: path.join(state, 'wrangler'),
      vars,
      catchers: { smtpPort: smtp.port },
      logFile: path.join(logDir, 'crash-wrangler.log'),
      quiet: true,
    });
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
  const eventually = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> => {
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
      await sleep(1000);
    }
  };

  beforeAll(async () => {
    mkdirSync(logDir, { recursive: true });
    rmSync(path.join(logDir, 'crash-wrangler.log'), { force: true });
    smtp = await startCountingSmtp();
    port = await freePort(8795);
    await start();
    token = (await api('POST', '/internal-auth/token-create', { username: SEED_USER.username, password: SEED_USER.password })).access_token;
  }, 240_000);

  afterAll(async () => {
    await platform?.stop();
    await smtp?.close();
    rmSync(state, { recursive: true, force: true });
  });

  it(
    `sends every one of ${RECIPIENTS} messages, duplicates within ${DUPLICATE_BOUND_PER_KILL} per kill, finishing within 3 minutes of the last restart`,
    async () => {
      // The audience: RECIPIENTS contacts with one tag, through the import.
      const run = Date.now().toString(36);
      const csv = ['name,email,tags', ...Array.from({ length: RECIPIENTS }, (_, i) => `Person ${i},p${i}.${run}@crash.test,crash-${run}`)].join('\n');
      const uploaded = await fetch(`http://127.0.0.1:${port}/api/v1/import/upload?file_name=crash.csv`, {
        method: 'POST',
        headers: { 'x-org': SEED_ORG.domain, authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        body: csv,
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
      const tag = (await api('GET', `/tag?search=crash-${run}`)).items[0];

      // The seeded SMTP integration (pointed at our server) with a send limit, its sender, and a template.
      const integration = (await api('GET', '/integration?type=smtp')).items[0];
      await api('PATCH', `/integration/${integration.id}/smtp`, { max_rate: MAX_RATE });
      const sender = (await api('GET', `/sender?type=email&integration_id=${integration.id}`)).items[0];
      const template = (
        await api('POST', '/template', { type: 'email', name: `Crash ${run}`, subject: 'Hello {{ contact.name }}', body: '<p>Hello {{ contact.name }}</p>' })
      ).data;
      const broadcast = (
        await api('POST', '/broadcast', {
          name: `Crash ${run}`,
          type: 'email',
          sender_id: sender.id,
          template_id: template.id,
          do_not_unsubscribe: true,
          contacts: { filter: { tags: [tag.id] } },
        })
      ).data;

      const log: string[] = [];
      for (let k = 1; k <= KILLS; k++) {
        // Let it send a while (a random point), then kill everything.
        const before = accepted.size;
        await eventually(
          `sending before kill ${k}`,
          async () => accepted.size,
          (n) => n >= Math.min(RECIPIENTS, before + 50),
          THREE_MINUTES,
        );
        await sleep(500 + Math.random() * 4000);
        const atKill = await progress(broadcast.id);
        await kill();
        const killedAt = accepted.size;
        await start();
        // Nobody touches it: it must move again by itself.
        await eventually(
          `progress after restart ${k}`,
          async () => accepted.size,
          (n) => n > killedAt || recipients.size >= RECIPIENTS,
          THREE_MINUTES,
        );
        log.push(`kill ${k}: recorded sent ${atKill.sent}, server had ${killedAt} unique messages; moving again after the restart`);
      }
      const restartedAt = Date.now();
      const done = await eventually(
        'finished after the last restart',
        () => progress(broadcast.id),
        (b) => b.status === 'finished',
        THREE_MINUTES,
      );
      const total = [...accepted.values()].reduce((a, n) => a + n, 0);
      const duplicates = total - accepted.size;
      console.log(
        [
          ...log,
          `finished ${Math.round((Date.now() - restartedAt) / 1000)} s after the last restart: ${JSON.stringify(done)}; server received ${total}, ${accepted.size} unique, ${duplicates} duplicates (bound ${KILLS * DUPLICATE_BOUND_PER_KILL})`,
        ].join('\n'),
      );

      expect(done).toMatchObject({ status: 'finished', total: RECIPIENTS, sent: RECIPIENTS, failed: 0, skipped: 0 });
      const expected = Array.from({ length: RECIPIENTS }, (_, i) => `p${i}.${run}@crash.test`);
      expect(expected.filter((address) => !recipients.has(address))).toEqual([]);
      expect(accepted.size).toBe(RECIPIENTS);
      expect(duplicates).toBeLessThanOrEqual(KILLS * DUPLICATE_BOUND_PER_KILL);
    },
    30 * 60_000,
  );
});
