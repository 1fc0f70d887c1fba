import { beforeAll, describe, expect, inject, it } from 'vitest';
import { requestWithHost } from '../../scripts/lib/http.mjs';
import { SEED_ORG, SEED_USER } from '../../scripts/lib/seed-data.mjs';
import { eventually } from './console';

// A new user can send a test email and SMS within a minute of `npm start`: the seeded example organisation
// has an smtp and a twilio integration pointing at the local catchers, with a sender each. This drives the
// real path through the running platform: API -> send queue -> consumer -> SMTP / Twilio-shaped HTTP.
const port = inject('port');
const mailUrl = inject('mailUrl');
const smsUrl = inject('smsUrl');
const host = `${SEED_ORG.domain}.localhost:${port}`;
let token = '';

async function api(method: string, path: string, json?: unknown) {
  const res = await requestWithHost(port, host, method, `/api/v1${path}`, {
    json,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, body: res.body ? JSON.parse(res.body) : null };
}

async function senderOf(type: 'email' | 'phone') {
  const { body } = await api('GET', '/sender?page_size=100');
  const sender = body.items.find((s: { type: string }) => s.type === type);
  expect(sender, `a seeded ${type} sender`).toBeTruthy();
  return sender as { id: number; value: string };
}

async function caught(url: string): Promise<{ to: unknown; subject?: string; text?: string; body?: string }[]> {
  return (await fetch(`${url}/messages.json`)).json();
}

beforeAll(async () => {
  const signIn = await api('POST', '/internal-auth/token-create', { username: SEED_USER.username, password: SEED_USER.password });
  expect(signIn.status).toBe(200);
  token = signIn.body.access_token;
});

describe('seeded example channels', () => {
  it('sends a test email through the seeded smtp integration into the local mail catcher', async () => {
    const sender = await senderOf('email');
    const template = await api('POST', '/template', {
      type: 'email',
      name: 'Seed check email',
      subject: 'Hello from {{ organization.name }}',
      body: '<p>It works for {{ organization.domain }}.</p>',
    });
    expect(template.status).toBe(201);
    const sent = await api('POST', `/template/${template.body.data.id}/test`, { sender_id: sender.id, to: 'someone@example.test' });
    expect(sent.status).toBe(202);
    const messageId = sent.body.data.id;

    await eventually(async () => (await api('GET', `/message/${messageId}`)).body.data.status, 'sent', 30_000);
    const mail = (await caught(mailUrl)).find((m) => m.subject === 'Hello from Acme Inc');
    expect(mail, 'the mail in the catcher').toBeTruthy();
    expect(JSON.stringify(mail!.to)).toContain('someone@example.test');
    expect(mail!.text ?? '').toContain('It works for acme.');
  });

  it('sends a test SMS through the seeded twilio integration into the local SMS catcher', async () => {
    const sender = await senderOf('phone');
    const template = await api('POST', '/template', { type: 'text', name: 'Seed check sms', body: 'Code 4711 from {{ organization.name }}' });
    expect(template.status).toBe(201);
    const sent = await api('POST', `/template/${template.body.data.id}/test`, { sender_id: sender.id, to: '+15551230000' });
    expect(sent.status).toBe(202);

    await eventually(async () => (await api('GET', `/message/${sent.body.data.id}`)).body.data.status, 'sent', 30_000);
    const sms = (await caught(smsUrl)).find((m) => (m.body ?? '').includes('Code 4711'));
    expect(sms, 'the SMS in the catcher').toBeTruthy();
    expect(sms!.body).toBe('Code 4711 from Acme Inc');
    expect(JSON.stringify(sms!.to)).toContain('+15551230000');
  });
});
