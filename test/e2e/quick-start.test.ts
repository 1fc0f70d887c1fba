import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/http.mjs';

// The README's first command as a newcomer runs it: `npm start` (here `node scripts/start.mjs` on its own free ports
// and a throwaway STATE_DIR, beside the suite's platform) must show a short list of steps and the final block, with
// the build's, the migrations' and wrangler's own output in the log file the block names.
const ROOT = path.resolve(import.meta.dirname, '../..');
const state = mkdtempSync(path.join(os.tmpdir(), 'relay-start-'));
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
  rmSync(state, { recursive: true, force: true });
});

/** Resolves with everything `npm start` printed once it says how to stop it (or rejects when it exits first). */
function startOutput(env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Press Ctrl-C to stop.')) resolve(out);
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was up:\n${out}`)));
  });
}

describe('npm start (the quick start)', () => {
  it('prints a step per line and the final block, and keeps the details in the log it names', async () => {
    const port = await freePort(8890);
    const ports = {
      PORT: port,
      MAIL_PORT: await freePort(port + 10),
      MAIL_UI_PORT: await freePort(port + 11),
      SMS_PORT: await freePort(port + 12),
      OIDC_PORT: await freePort(port + 13),
      DOH_PORT: await freePort(port + 14),
      WEBHOOK_PORT: await freePort(port + 15),
      TURNSTILE_PORT: await freePort(port + 16),
    };
    // A newcomer's shell: none of vitest's variables. With its NODE_ENV=test the console's build would be a development
    // build (the JSX dev runtime, other chunks) written over the one the other browser tests load.
    const shell = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV' && k !== 'TEST' && !k.startsWith('VITEST')));
    const env = { ...shell, STATE_DIR: state, NO_COLOR: '1', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
    const out = (await startOutput(env)).replace(/\x1b\[[0-9;]*m/g, '');

    const [before, block] = out.split('The platform is running.');
    expect(block, out).toBeDefined();
    expect(before.trimEnd().split('\n').length, out).toBeLessThanOrEqual(40);
    for (const step of [
      'Building the console',
      'Starting the mail catcher',
      'Starting the DNS stand-in',
      'Starting the Turnstile stand-in',
      'Migrating and seeding the local database, starting wrangler dev',
    ])
      expect(before).toMatch(new RegExp(`${step}… done \\(\\d+ s\\)`));
    expect(out).not.toContain('Unable to fetch the `Request.cf` object');
    expect(block).toContain(`Open:         http://acme.localhost:${port}`);
    expect(block).toContain(`Caught mail:  http://127.0.0.1:${ports.MAIL_UI_PORT}`);
    expect(block).toContain(`Turnstile:    http://127.0.0.1:${ports.TURNSTILE_PORT}/turnstile/v0/`);

    // The seeded sending domain's records, in the zone file the DoH stand-in answers from.
    const zoneFile = path.join(state, 'local', 'dns.json');
    expect(block).toContain(`DNS:          http://127.0.0.1:${ports.DOH_PORT}/dns-query  (answers from ${zoneFile}`);
    expect(Object.keys(JSON.parse(readFileSync(zoneFile, 'utf8')))).toEqual(
      expect.arrayContaining(['_relay-verification.acme.test TXT', 'acme.test TXT', '_dmarc.acme.test TXT']),
    );

    const logPath = path.join(state, 'local', 'start.log');
    expect(block).toContain(`Log:          ${logPath}`);
    const log = readFileSync(logPath, 'utf8');
    expect(log).toContain('0000_foundation.sql'); // the migrations' table
    expect(log).toMatch(/GET \/api\/v1\/init\/guest 200/); // wrangler's request lines
    expect(log).not.toContain('Unable to fetch the `Request.cf` object');
  });
});
