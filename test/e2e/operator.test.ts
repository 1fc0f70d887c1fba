import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { hostCall, linkIn, uniqueLabel, waitForMail } from './identity-helpers';

// The operator's side of paused registration, through the README's command (scripts/operator.mjs) against the
// running platform: pause sign-up, a visitor's pre-registration is acknowledged by mail, the operator lists,
// approves and declines requests, and the visitor's invitation signs up while registration is paused. The
// mail is read from the local mail catcher, so it went through the system SMTP for real.
const port = inject('port');
const mailUrl = inject('mailUrl');
const operatorToken = inject('operatorToken');
const platformHost = `localhost:${port}`;
const cli = path.resolve(import.meta.dirname, '../../scripts/operator.mjs');

/** Runs `npm run operator -- <args>` (the script itself) against this platform; resolves with its output. */
async function operator(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [cli, ...args], {
    env: { ...process.env, OPERATOR_URL: `http://127.0.0.1:${port}`, OPERATOR_TOKEN: operatorToken },
  });
  return stdout;
}

async function preRegister(email: string, organization: string) {
  const res = await hostCall<{ data: { id: number; status: string } }>(port, platformHost, 'POST', '/api/v1/pre-registration', {
    json: { name: `Visitor ${organization}`, email, organization, comments: 'We send 20,000 mails a month.' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

describe('paused registration and the operator command', () => {
  afterAll(async () => {
    // Other test files sign up: leave registration open whatever happened here.
    await operator('set', 'signup.active', 'true');
  });

  it('pauses sign-up, acknowledges and reviews requests by mail, and lets the invited visitor sign up', async () => {
    expect(JSON.parse(await operator('set', 'signup.active', 'false'))['signup.active']).toBe(false);
    const guest = await hostCall<{ data: { settings: Record<string, unknown> } }>(port, platformHost, 'GET', '/api/v1/init/guest');
    expect(guest.body.data.settings['signup.active']).toBe(false);

    const label = uniqueLabel('op');
    const invited = `${label}-yes@example.test`;
    const refused = `${label}-no@example.test`;
    const yes = await preRegister(invited, `${label} Yes`);
    const no = await preRegister(refused, `${label} No`);
    await waitForMail(mailUrl, invited, /pre-registration request received/i);
    await waitForMail(mailUrl, refused, /pre-registration request received/i);

    const pending = await operator('requests', 'pending');
    expect(pending).toContain(`#${yes}`);
    expect(pending).toContain(invited);
    expect(pending).toContain(`#${no}`);

    expect(await operator('approve', String(yes), 'Welcome', 'aboard')).toContain(`#${yes} approved`);
    expect(await operator('decline', String(no), 'Not', 'for', 'now')).toContain(`#${no} declined`);
    const declinedMail = await waitForMail(mailUrl, refused, /declined/i);
    expect(declinedMail.text).toContain('Not for now');
    const approvedMail = await waitForMail(mailUrl, invited, /approved/i);
    const invitation = linkIn(approvedMail, '/signup');
    expect(invitation.host).toBe(platformHost);
    expect(await operator('requests', 'approved')).toContain(`#${yes}`);

    // Paused: a sign-up without an invitation is refused, the invited address with its invitation is taken.
    const signup = (email: string, invite?: string) =>
      hostCall<{ error?: { code: string } }>(port, platformHost, 'POST', '/api/v1/signup', {
        json: {
          user: { name: 'Invited Visitor', email, password: 'Start-Pass-1!' },
          organization: { name: `${label} Org`, domain: `${label}-org` },
          ...(invite ? { invite } : {}),
        },
      });
    const withoutInvite = await signup(invited);
    expect(withoutInvite.status).toBe(409);
    expect(withoutInvite.body.error?.code).toBe('registration_paused');
    expect((await signup(refused, invitation.searchParams.get('invite')!)).status).toBe(422);
    expect((await signup(invited, invitation.searchParams.get('invite')!)).status).toBe(201);
  });

  it('refuses a wrong operator token', async () => {
    const run = promisify(execFile)(process.execPath, [cli, 'settings'], {
      env: { ...process.env, OPERATOR_URL: `http://127.0.0.1:${port}`, OPERATOR_TOKEN: 'not-the-token' },
    });
    await expect(run).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('401') });
  });
});
