import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';

// `npm run smoke` against the local platform, so the script a deployment is checked with never rots: it makes its own
// organisation through the operator API, checks the SMTP integration (the mail catcher), creates a contact, sends a
// test message and loads that message's own tracking pixel from the caught mail. Against an organisation whose SMTP
// integration points nowhere it must fail, saying why.
const platformUrl = inject('platformUrl');
const mailUrl = inject('mailUrl');
const mailSmtpPort = inject('mailSmtpPort');
const operatorToken = inject('operatorToken');
const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/smoke.mjs');
const RUN = Date.now().toString(36);

async function smoke(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, platformUrl, ...args], {
      env: { ...process.env, OPERATOR_TOKEN: operatorToken },
      timeout: 120_000,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('npm run smoke (against the local platform)', () => {
  it('passes every step, and again on a second run with the organisation it made', async () => {
    const org = `smoke-${RUN}`;
    const first = await smoke('--org', org, '--smtp', `smtp://smoke:smoke@127.0.0.1:${mailSmtpPort}`, '--mailbox', mailUrl, '--to', `smoke-${RUN}@example.com`);
    console.log(first.out);
    expect(first.code, first.out).toBe(0);
    for (const step of ['platform answers', 'organisation', 'sign in', 'integration', 'contact', 'test message', 'tracking pixel']) {
      expect(first.out).toMatch(new RegExp(`^ok {4}${step} \\(\\d+ ms\\)`, 'm'));
    }
    expect(first.out).toContain(`${org} made`);
    expect(first.out).toContain("the message's own pixel loaded and its open counted");

    // The second run finds the organisation and its integration (no --smtp), and checks the pixel route only.
    const second = await smoke('--org', org, '--to', `smoke-${RUN}@example.com`);
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain(`${org} (made earlier)`);
    expect(second.out).toContain('smoke: every step passed');
  });

  it('fails with a clear message when the SMTP integration is broken', async () => {
    // A port nothing listens on.
    const broken = await smoke('--org', `smoke-broken-${RUN}`, '--smtp', 'smtp://smoke:smoke@127.0.0.1:9', '--to', `broken-${RUN}@example.com`);
    console.log(broken.out);
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(/^FAIL {2}integration \(\d+ ms\): the SMTP integration "Smoke check" \(127\.0\.0\.1:9\) does not work: .*refused/m);
    expect(broken.out).toContain('smoke: FAILED');
    expect(broken.out).not.toMatch(/^ok {4}test message/m);
  });
});
