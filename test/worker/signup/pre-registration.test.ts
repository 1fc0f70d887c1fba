import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { signInvite } from '../../../src/modules/signup/invite';
import { MESSAGES } from '../../../src/shared/messages';
import { mailsTo } from '../helpers';
import { count, operator, platform, setSignup, signupBody } from './helpers';

const request = (json: unknown) => platform('/api/v1/pre-registration', { method: 'POST', json });
const form = (email: string, extra: Record<string, unknown> = {}) => ({
  name: 'Pat Visitor',
  email,
  organization: 'Pat & Co',
  domain: 'pat-co',
  comments: 'We send 10k newsletters a month.',
  ...extra,
});

/** Submits a request while paused and returns its id. */
async function submitted(email: string): Promise<number> {
  const res = await request(form(email));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

/** The invitation URL mailed on approval. */
async function invitationOf(email: string): Promise<URL> {
  const mail = (await mailsTo(email)).find((m) => m.subject === 'Your pre-registration request was approved');
  expect(mail).toBeDefined();
  const match = /(https?:\/\/\S+\?invite=\S+)/.exec(mail!.text!);
  expect(match, mail!.text!).not.toBeNull();
  return new URL(match![1]);
}

describe('pre-registration', () => {
  beforeEach(() => setSignup({ 'signup.enabled': true, 'signup.active': false, 'signup.applicationUrl': 'http://localhost:8787/signup' }));

  it('stores a request while registration is paused and mails the acknowledgement', async () => {
    const res = await request(form('Pat@Example.com'));
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ id: expect.any(Number), status: 'pending' });
    const row = await env.DB.prepare('SELECT * FROM pre_registrations WHERE id = ?').bind(res.body.data.id).first<Record<string, any>>();
    expect(row).toMatchObject({ name: 'Pat Visitor', email: 'pat@example.com', org_name: 'Pat & Co', domain: 'pat-co', status: 'pending' });
    const [mail] = await mailsTo('pat@example.com');
    expect(mail).toMatchObject({ subject: 'Pre-registration request received', org_id: null });
    expect(mail.text).toContain('under review');
  });

  it('is refused while registration is open (409) or closed (404)', async () => {
    await setSignup({ 'signup.active': true });
    const open = await request(form('open@example.com'));
    expect(open.status).toBe(409);
    expect(open.body.error).toMatchObject({ code: 'conflict', message: 'Registration is open: sign up instead.' });
    await setSignup({ 'signup.enabled': false });
    const closed = await request(form('closed@example.com'));
    expect(closed.status).toBe(404);
    expect(closed.body.error.code).toBe('registration_closed');
    expect(await count("SELECT count(*) AS n FROM pre_registrations WHERE email IN ('open@example.com', 'closed@example.com')")).toBe(0);
  });

  it('validates the request', async () => {
    const res = await request({ name: '', email: 'nope', organization: ' ', domain: 'www', comments: '' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toMatchObject({
      name: [MESSAGES.required],
      email: [MESSAGES.invalidEmail],
      organization: [MESSAGES.required],
      domain: [MESSAGES.orgDomainReserved],
      comments: [MESSAGES.required],
    });
    expect((await request({ ...form('x@example.com'), extra: 1 })).status).toBe(422);
    expect((await platform('/api/v1/pre-registration', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await platform('/api/v1/pre-registration', { method: 'POST', body: 'a=b' })).status).toBe(415);
  });

  it('approval mails an invitation that lets exactly that email sign up while paused', async () => {
    const id = await submitted('invited@example.com');
    const approved = await operator('POST', `/pre-registrations/${id}/approve`, { note: 'Welcome aboard.' });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ id, status: 'approved', review_note: 'Welcome aboard.', email: 'invited@example.com' });
    expect(approved.body.data.reviewed_at).toBeTruthy();

    const url = await invitationOf('invited@example.com');
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost:8787/signup');
    const invite = url.searchParams.get('invite')!;
    const mail = (await mailsTo('invited@example.com')).find((m) => m.subject.includes('approved'))!;
    expect(mail.text).toContain('Welcome aboard.');

    // Another email with this invitation: refused on the email field.
    const other = await platform('/api/v1/signup', { method: 'POST', json: signupBody('invited-co', { user: { email: 'intruder@example.com' }, invite }) });
    expect(other.status).toBe(422);
    expect(other.body.error.fields['user.email']).toBeDefined();
    // A tampered invitation: still paused.
    const [payload, sig] = invite.split('.');
    const forgedPayload = btoa(JSON.stringify({ email: 'intruder@example.com', exp: Date.now() + 1e9, k: 'test1' }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    for (const bad of [`${forgedPayload}.${sig}`, `${payload}.${sig.slice(0, -2)}AA`, 'garbage']) {
      const res = await platform('/api/v1/signup', {
        method: 'POST',
        json: signupBody('invited-co', { user: { email: 'intruder@example.com' }, invite: bad }),
      });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('registration_paused');
    }
    // The invited email (any case) gets through.
    const ok = await platform('/api/v1/signup', { method: 'POST', json: signupBody('invited-co', { user: { email: 'Invited@Example.com' }, invite }) });
    expect(ok.status).toBe(201);
    expect(ok.body.data.email).toBe('invited@example.com');
  });

  it('an expired invitation no longer opens the paused registration', async () => {
    const invite = await signInvite(env, 'late@example.com', Date.now() - 30 * 86_400_000);
    const res = await platform('/api/v1/signup', { method: 'POST', json: signupBody('late-co', { user: { email: 'late@example.com' }, invite }) });
    expect(res.status).toBe(409);
  });

  it('decline mails the outcome; a request is reviewed only once', async () => {
    const id = await submitted('declined@example.com');
    const res = await operator('POST', `/pre-registrations/${id}/decline`, { note: 'Not a fit right now.' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'declined', review_note: 'Not a fit right now.' });
    const mail = (await mailsTo('declined@example.com')).find((m) => m.subject === 'Your pre-registration request was declined');
    expect(mail?.text).toContain('Not a fit right now.');
    expect(mail?.text).not.toContain('invite=');

    const again = await operator('POST', `/pre-registrations/${id}/approve`, {});
    expect(again.status).toBe(409);
    expect((await operator('POST', `/pre-registrations/${id}/decline`, {})).status).toBe(409);
    expect(await mailsTo('declined@example.com')).toHaveLength(2); // acknowledgement + one outcome
  });

  it('the operator lists requests by status; bad ids, statuses and bodies are refused', async () => {
    const a = await submitted('list-a@example.com');
    const b = await submitted('list-b@example.com');
    await operator('POST', `/pre-registrations/${b}/approve`, {});
    const pending = await operator('GET', '/pre-registrations?status=pending');
    expect(pending.status).toBe(200);
    const pendingIds = pending.body.data.map((r: { id: number }) => r.id);
    expect(pendingIds).toContain(a);
    expect(pendingIds).not.toContain(b);
    const approved = (await operator('GET', '/pre-registrations?status=approved')).body.data.map((r: { id: number }) => r.id);
    expect(approved).toContain(b);
    expect(approved).not.toContain(a);
    const all = (await operator('GET', '/pre-registrations')).body.data.map((r: { id: number }) => r.id);
    expect(all).toEqual(expect.arrayContaining([a, b]));
    expect(all.indexOf(b)).toBeLessThan(all.indexOf(a)); // newest first

    expect((await operator('GET', '/pre-registrations?status=maybe')).status).toBe(422);
    expect((await operator('POST', '/pre-registrations/999999/approve', {})).status).toBe(404);
    expect((await operator('POST', '/pre-registrations/abc/approve', {})).status).toBe(404);
    expect((await operator('POST', '/pre-registrations/0/decline', {})).status).toBe(404);
    expect((await operator('POST', `/pre-registrations/${a}/approve`, { note: 5 })).status).toBe(422);
    expect((await operator('POST', `/pre-registrations/${a}/approve`, { extra: true })).status).toBe(422);
    expect((await platform(`/api/v1/operator/pre-registrations/${a}/approve`, { method: 'POST', body: 'x', token: 'test-operator-token' })).status).toBe(415);
    expect((await env.DB.prepare('SELECT status FROM pre_registrations WHERE id = ?').bind(a).first<{ status: string }>())!.status).toBe('pending');
  });
});
