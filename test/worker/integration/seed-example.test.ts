import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { decryptSecret } from '../../../src/lib/crypto/secret-box';
import { deliverMessage } from '../../../src/modules/message/send-message';
import { EXAMPLE_CHANNELS, exampleChannelsSql } from '../../../src/modules/integration/seed-example';
import { EXAMPLE_AUDIENCE } from '../../../src/modules/contact/seed-example';
import { compileTracking } from '../../../src/modules/tracking/compile';
import { createTemplate, newOrg, recordingProviders } from '../channel-helpers';

async function runSql(sql: string) {
  for (const statement of sql
    .split(/;\s*\n/)
    .map((s) => s.trim().replace(/;$/, ''))
    .filter(Boolean))
    await env.DB.prepare(statement).run();
}

describe('example channels for the local platform', () => {
  it('creates an smtp and a twilio integration with a sender each, idempotently, with secrets the worker can read', async () => {
    const o = await newOrg('seed');
    const first = await exampleChannelsSql({ org: { domain: o.org }, secretsKey: env.SECRETS_KEY, smtpPort: 1025, smsPort: 8026 });
    expect(first.twilioApiBase).toBe('http://127.0.0.1:8026');
    await runSql(first.sql);
    // Running it again (as every `npm start` does) refreshes secrets and adds nothing twice.
    await runSql((await exampleChannelsSql({ org: { id: o.orgId }, secretsKey: env.SECRETS_KEY })).sql);

    const integrations = (await o.api('GET', '/integration')).body.items;
    expect(integrations.map((i: { name: string; type: string; details: unknown }) => [i.name, i.type, i.details])).toEqual([
      [
        EXAMPLE_CHANNELS.smtpName,
        'smtp',
        { server: '127.0.0.1', port: 1025, ssl: false, tls: false, domain: 'acme.test', return_path: null, sendgrid_verification_key: null, user: 'local' },
      ],
      [EXAMPLE_CHANNELS.twilioName, 'twilio', { sid: EXAMPLE_CHANNELS.twilioSid }],
    ]);
    expect(EXAMPLE_CHANNELS.twilioSid).toMatch(/^AC[0-9a-f]{32}$/);
    const secrets = await env.DB.prepare('SELECT type, secret FROM integrations WHERE org_id = ? ORDER BY id')
      .bind(o.orgId)
      .all<{ type: string; secret: string }>();
    expect(await Promise.all(secrets.results.map(async (r) => JSON.parse(await decryptSecret(env.SECRETS_KEY, r.secret))))).toEqual([
      { password: 'local' },
      { token: 'local' },
    ]);

    const senders = (await o.api('GET', '/sender')).body.items;
    expect(senders.map((s: { type: string; value: string; name: string | null }) => [s.type, s.value, s.name])).toEqual([
      ['email', 'hello@acme.test', 'Acme'],
      ['phone', '+15005550006', null],
    ]);

    // The seeded sender sends through the seeded integration with its decrypted password.
    const template = await createTemplate(o, { type: 'email', name: 'Hello', subject: 'Hi', body: '<p>Hi</p>' });
    const res = await o.api('POST', `/template/${template.id}/test`, { sender_id: senders[0].id, to: 'someone@example.com' });
    expect(res.status).toBe(202);
    const rec = recordingProviders();
    await deliverMessage(env, { orgId: o.orgId, messageId: res.body.data.id }, 1, rec.providers);
    expect(rec.opened).toEqual([{ type: 'smtp', integrationId: integrations[0].id, secret: 'local' }]);
  });
});

describe('the example templates', () => {
  it('give the email a web link to track (the README tries a click on the first broadcast) beside its unsubscribe link', async () => {
    const email = EXAMPLE_AUDIENCE.templates.find((t) => t.type === 'email')!;
    const compiled = await compileTracking(email.body, { opens: true, clicks: true }, true);
    expect(compiled.links.filter((url) => url?.startsWith('https://'))).toEqual(['https://example.com/']);
    expect(email.subject).toBeTruthy();
  });
});
