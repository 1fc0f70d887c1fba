import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { decryptSecret } from '../../../src/lib/crypto/secret-box';
import { runIntegrationSync, SYNC_KIND } from '../../../src/modules/integration/sync';
import { createIntegration, createSender, newOrg, row, SMTP_INPUT, TWILIO_INPUT, type Org } from '../channel-helpers';

const SECRETS = [SMTP_INPUT.password, TWILIO_INPUT.token, 'new-smtp-password-9', 'new-token-9'];

/** No response of the integration API may ever contain a secret. */
function expectNoSecret(text: string) {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  expect(text).not.toMatch(/"(password|token|secret)"/);
}

describe('integration create and validation', () => {
  it('creates smtp and twilio integrations, stores secrets encrypted and never returns them', async () => {
    const o = await newOrg();
    const smtpRes = await o.api('POST', '/integration', {
      ...SMTP_INPUT,
      note: 'main relay',
      details: { ...SMTP_INPUT.details, return_path: 'bounce@acme.test', domain: 'acme.test' },
    });
    expect(smtpRes.status).toBe(201);
    expectNoSecret(smtpRes.text);
    expect(smtpRes.body.data).toMatchObject({
      name: 'Main SMTP',
      type: 'smtp',
      status: 'active',
      note: 'main relay',
      should_merge: true,
      dkim_signing: true,
      details: { server: '127.0.0.1', port: 2525, ssl: false, tls: false, domain: 'acme.test', return_path: 'bounce@acme.test', user: 'mailer@acme.test' },
      last_sync: null,
    });
    const twilioRes = await o.api('POST', '/integration', { ...TWILIO_INPUT, should_merge: false });
    expect(twilioRes.status).toBe(201);
    expectNoSecret(twilioRes.text);
    expect(twilioRes.body.data).toMatchObject({ type: 'twilio', should_merge: false, details: { sid: TWILIO_INPUT.sid } });

    const stored = await row<{ secret: string; details: string }>('integrations', smtpRes.body.data.id);
    expect(stored!.secret).not.toContain(SMTP_INPUT.password);
    expect(stored!.secret.startsWith('v1.test1.')).toBe(true);
    expect(JSON.parse(await decryptSecret(env.SECRETS_KEY, stored!.secret))).toEqual({ password: SMTP_INPUT.password });
    expect(stored!.details).not.toContain(SMTP_INPUT.password);
    const storedTwilio = await row<{ secret: string }>('integrations', twilioRes.body.data.id);
    expect(JSON.parse(await decryptSecret(env.SECRETS_KEY, storedTwilio!.secret))).toEqual({ token: TWILIO_INPUT.token });

    await createSender(o, { integration_id: smtpRes.body.data.id, type: 'email', value: 'from@acme.test' });
    for (const res of [
      await o.api('GET', '/sender'),
      await o.api('GET', '/integration'),
      await o.api('GET', `/integration/${smtpRes.body.data.id}`),
      await o.api('GET', `/integration/${twilioRes.body.data.id}`),
    ]) {
      expect(res.status).toBe(200);
      expectNoSecret(res.text);
    }
  });

  it('requires name and type, and the fields of the type', async () => {
    const o = await newOrg();
    let res = await o.api('POST', '/integration', {});
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toMatchObject({ name: ['This field is required'], type: ['This field is required'] });

    res = await o.api('POST', '/integration', { type: 'smtp' });
    expect(res.body.error.fields).toEqual({
      name: ['This field is required'],
      'details.server': ['This field is required'],
      'details.port': ['This field is required'],
      user: ['This field is required'],
      password: ['This field is required'],
    });

    res = await o.api('POST', '/integration', { name: 'T', type: 'twilio' });
    expect(res.body.error.fields).toEqual({ sid: ['This field is required'], token: ['This field is required'] });
    res = await o.api('POST', '/integration', { name: 'T', type: 'twilio', sid: 'nope', token: 'x' });
    expect(res.body.error.fields).toEqual({ sid: ['Account SID is AC followed by 32 hexadecimal characters'] });

    res = await o.api('POST', '/integration', { ...SMTP_INPUT, type: 'sendgrid' });
    expect(res.body.error.fields.type).toEqual(['Type must be smtp or twilio']);

    for (const port of [65536, 25.5, 'abc']) {
      res = await o.api('POST', '/integration', { ...SMTP_INPUT, details: { server: 'smtp.example.com', port } });
      expect(res.status).toBe(422);
      expect(res.body.error.fields['details.port']).toEqual(['Port must be a whole number from 1 to 65535']);
    }
    for (const port of [0, -1]) {
      res = await o.api('POST', '/integration', { ...SMTP_INPUT, details: { server: 'smtp.example.com', port } });
      expect(res.body.error.fields['details.port']).toEqual(['Value must be greater than "0"']);
    }
    res = await o.api('POST', '/integration', { ...SMTP_INPUT, details: { server: 'smtp.example.com', port: '587', return_path: 'not-an-email' } });
    expect(res.body.error.fields).toEqual({ 'details.return_path': ['Invalid email address. Please enter a valid email'] });
    res = await o.api('POST', '/integration', { ...SMTP_INPUT, details: { server: 'http://smtp.example.com/', port: 587 } });
    expect(res.body.error.fields).toEqual({ 'details.server': ['Enter a host name such as smtp.example.com'] });
    res = await o.api('POST', '/integration', { ...SMTP_INPUT, extra: 1 });
    expect(res.status).toBe(422);

    expect((await o.api('GET', '/integration')).body.meta.total).toBe(0);
    // A port given as digits is taken as a number.
    res = await o.api('POST', '/integration', { ...SMTP_INPUT, details: { server: 'smtp.example.com', port: '587', tls: true } });
    expect(res.status).toBe(201);
    expect(res.body.data.details).toMatchObject({ port: 587, tls: true, ssl: false });
  });

  it('accepts the type as a last path segment on create and update', async () => {
    const o = await newOrg();
    const { password, ...rest } = SMTP_INPUT;
    let res = await o.api('POST', '/integration/smtp', { ...rest, type: undefined, password });
    expect(res.status).toBe(201);
    expect(res.body.data.type).toBe('smtp');
    const id = res.body.data.id;
    res = await o.api('POST', '/integration/twilio', { ...SMTP_INPUT });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.type[0]).toMatch(/twilio/);
    res = await o.api('POST', '/integration/twilio', { name: 'Tw', sid: TWILIO_INPUT.sid, token: TWILIO_INPUT.token });
    expect(res.status).toBe(201);

    res = await o.api('PUT', `/integration/${id}/smtp`, { name: 'Renamed', details: { port: 465, ssl: true } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', details: { server: '127.0.0.1', port: 465, ssl: true, user: 'mailer@acme.test' } });
    res = await o.api('PATCH', `/integration/${id}/twilio`, { name: 'Wrong type' });
    expect(res.status).toBe(404);
    res = await o.api('PATCH', `/integration/${id}`, { note: 'patched' });
    expect(res.body.data).toMatchObject({ name: 'Renamed', note: 'patched', type: 'smtp' });
    // The type is fixed: an update cannot name it.
    res = await o.api('PATCH', `/integration/${id}`, { type: 'twilio' });
    expect(res.status).toBe(422);
  });

  it('keeps who signs with DKIM (dkim_signing): on by default, off on create, changed by PATCH, a non-boolean refused', async () => {
    const o = await newOrg();
    const off = await o.api('POST', '/integration', { ...SMTP_INPUT, dkim_signing: false });
    expect(off.status, off.text).toBe(201);
    expect(off.body.data.dkim_signing).toBe(false);
    expect((await row<{ dkim_signing: number }>('integrations', off.body.data.id))!.dkim_signing).toBe(0);
    let res = await o.api('PATCH', `/integration/${off.body.data.id}`, { dkim_signing: true });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.dkim_signing).toBe(true);
    res = await o.api('PATCH', `/integration/${off.body.data.id}`, { note: 'unchanged switch' });
    expect(res.body.data.dkim_signing).toBe(true);
    res = await o.api('PATCH', `/integration/${off.body.data.id}`, { dkim_signing: 'yes' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.dkim_signing).toBeDefined();
    res = await o.api('POST', '/integration', { ...SMTP_INPUT, dkim_signing: 1 });
    expect(res.status).toBe(422);
  });

  it('replaces credentials through PATCH /integration/{id}/{type}/credentials', async () => {
    const o = await newOrg();
    const smtp = await createIntegration(o, SMTP_INPUT);
    const twilio = await createIntegration(o, TWILIO_INPUT);

    let res = await o.api('PATCH', `/integration/${smtp.id}/smtp/credentials`, { user: 'other@acme.test' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ password: ['This field is required'] });
    res = await o.api('PATCH', `/integration/${smtp.id}/smtp/credentials`, { user: 'other@acme.test', password: 'new-smtp-password-9' });
    expect(res.status).toBe(200);
    expectNoSecret(res.text);
    expect(res.body.data.details.user).toBe('other@acme.test');
    const stored = await row<{ secret: string }>('integrations', smtp.id);
    expect(JSON.parse(await decryptSecret(env.SECRETS_KEY, stored!.secret))).toEqual({ password: 'new-smtp-password-9' });

    res = await o.api('PATCH', `/integration/${twilio.id}/twilio/credentials`, { sid: `AC${'f'.repeat(32)}`, token: 'new-token-9' });
    expect(res.status).toBe(200);
    expectNoSecret(res.text);
    expect(res.body.data.details.sid).toBe(`AC${'f'.repeat(32)}`);
    const storedTwilio = await row<{ secret: string }>('integrations', twilio.id);
    expect(JSON.parse(await decryptSecret(env.SECRETS_KEY, storedTwilio!.secret))).toEqual({ token: 'new-token-9' });

    expect((await o.api('PATCH', `/integration/${smtp.id}/twilio/credentials`, { sid: `AC${'f'.repeat(32)}`, token: 'x' })).status).toBe(404);
    expect((await o.api('PATCH', `/integration/${twilio.id}/twilio/credentials`, { sid: 'bad', token: 'x' })).status).toBe(422);

    const log = await env.DB.prepare("SELECT field, previous_value, new_value FROM activity_log WHERE entity = 'integration' AND entity_id = ?")
      .bind(smtp.id)
      .all();
    expect(JSON.stringify(log.results)).not.toContain('new-smtp-password-9');
    expect(log.results).toContainEqual({ field: 'password', previous_value: null, new_value: '(changed)' });
  });

  it('lists with the list contract and reorders by drag', async () => {
    const o = await newOrg();
    const a = await createIntegration(o, { ...SMTP_INPUT, name: 'A' });
    const b = await createIntegration(o, { ...TWILIO_INPUT, name: 'B' });
    const c = await createIntegration(o, { ...SMTP_INPUT, name: 'C' });
    let res = await o.api('GET', '/integration');
    expect(res.body.items.map((i: { name: string }) => i.name)).toEqual(['A', 'B', 'C']);
    expect(res.body.meta).toEqual({ total: 3, page: 1, page_size: 10, total_pages: 1 });
    res = await o.api('POST', '/integration/priorities', { ids: [c.id, a.id, b.id] });
    expect(res.status).toBe(200);
    res = await o.api('GET', '/integration?type=smtp');
    expect(res.body.items.map((i: { name: string }) => i.name)).toEqual(['C', 'A']);
    res = await o.api('GET', '/integration?search=B');
    expect(res.body.items.map((i: { name: string }) => i.name)).toEqual(['B']);
  });
});

describe('integration sync', () => {
  async function twilioOrg(shouldMerge = true) {
    const o = await newOrg();
    const twilio = await createIntegration(o, { ...TWILIO_INPUT, should_merge: shouldMerge });
    return { o, twilio };
  }

  const phoneSenders = (o: Org) =>
    env.DB.prepare("SELECT value, integration_id FROM senders WHERE org_id = ? AND type = 'phone' ORDER BY priority")
      .bind(o.orgId)
      .all<{ value: string; integration_id: number }>();

  it('refuses smtp integrations and a second sync while merging', async () => {
    const o = await newOrg();
    const smtp = await createIntegration(o, SMTP_INPUT);
    let res = await o.api('POST', `/integration/${smtp.id}/sync`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/SMTP integrations have nothing to sync/);
    const twilio = await createIntegration(o, TWILIO_INPUT);
    res = await o.api('POST', `/integration/${twilio.id}/sync`);
    expect(res.status).toBe(202);
    expect(res.body.data.status).toBe('merging');
    res = await o.api('POST', `/integration/${twilio.id}/sync`);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/already syncing/) });
    expect((await o.api('POST', '/integration/999999/sync')).status).toBe(404);
  });

  it('merges the account numbers into phone senders idempotently and returns to active', async () => {
    const { o, twilio } = await twilioOrg();
    // An existing sender of that number stays the only one.
    await createSender(o, { integration_id: twilio.id, type: 'phone', value: '+15005550006' });
    expect((await o.api('POST', `/integration/${twilio.id}/sync`)).status).toBe(202);
    const numbers = ['+15005550006', '+15005550007', '+447700900123', '+15005550007'];
    const seen: string[] = [];
    const deps = {
      async listPhoneNumbers(account: { details: { sid: string }; token: string }) {
        seen.push(`${account.details.sid}/${account.token}`);
        return numbers;
      },
    };
    const body = { kind: SYNC_KIND, orgId: o.orgId, integrationId: twilio.id } as const;
    await runIntegrationSync(env, body, deps as never);
    expect(seen).toEqual([`${TWILIO_INPUT.sid}/${TWILIO_INPUT.token}`]);
    const after = await o.api('GET', `/integration/${twilio.id}`);
    expect(after.body.data.status).toBe('active');
    expect(after.body.data.last_sync).toMatchObject({ numbers_found: 4, senders_added: 2, error: null });
    expect((await phoneSenders(o)).results.map((s) => s.value)).toEqual(['+15005550006', '+15005550007', '+447700900123']);

    // A redelivered message finds the integration active and does nothing; a new sync adds nothing twice.
    await runIntegrationSync(env, body, deps as never);
    expect(seen).toHaveLength(1);
    expect((await o.api('POST', `/integration/${twilio.id}/sync`)).status).toBe(202);
    await runIntegrationSync(env, body, deps as never);
    expect((await phoneSenders(o)).results).toHaveLength(3);
    expect((await o.api('GET', `/integration/${twilio.id}`)).body.data.last_sync).toMatchObject({ numbers_found: 4, senders_added: 0 });
    const list = await o.api('GET', '/sender?type=phone');
    expect(list.body.items.every((s: { integration: { id: number } }) => s.integration.id === twilio.id)).toBe(true);
  });

  it('records a failure and returns to active; adds nothing when should_merge is off', async () => {
    const { o, twilio } = await twilioOrg(false);
    await o.api('POST', `/integration/${twilio.id}/sync`);
    const body = { kind: SYNC_KIND, orgId: o.orgId, integrationId: twilio.id } as const;
    await runIntegrationSync(env, body, { listPhoneNumbers: async () => ['+15005550009'] });
    let after = (await o.api('GET', `/integration/${twilio.id}`)).body.data;
    expect(after).toMatchObject({ status: 'active', last_sync: { numbers_found: 1, senders_added: 0, error: null } });
    expect((await phoneSenders(o)).results).toHaveLength(0);

    await o.api('POST', `/integration/${twilio.id}/sync`);
    await runIntegrationSync(env, body, {
      listPhoneNumbers: async () => {
        throw new Error('Twilio refused the credentials (401)');
      },
    });
    after = (await o.api('GET', `/integration/${twilio.id}`)).body.data;
    expect(after).toMatchObject({ status: 'active', last_sync: { error: 'Twilio refused the credentials (401)' } });
  });

  it('queues the sync on the events queue and the real consumer runs it through the dispatcher', async () => {
    const { o, twilio } = await twilioOrg();
    // Nothing listens on this port: the real provider call fails, and the consumer records that.
    await env.DB.prepare('UPDATE integrations SET status = ? WHERE id = ?').bind('active', twilio.id).run();
    const res = await o.api('POST', `/integration/${twilio.id}/sync`);
    expect(res.status).toBe(202);
    const { dispatchQueue } = await import('../../../queues/dispatch');
    const message = {
      id: 'm1',
      timestamp: new Date(),
      attempts: 1,
      body: { kind: SYNC_KIND, orgId: o.orgId, integrationId: twilio.id },
      ack: () => {},
      retry: () => {},
    };
    await dispatchQueue(
      { queue: 'relay-events', messages: [message], ackAll() {}, retryAll() {} } as never,
      { ...env, TWILIO_API_BASE: 'http://127.0.0.1:9' } as never,
    );
    const after = (await o.api('GET', `/integration/${twilio.id}`)).body.data;
    expect(after.status).toBe('active');
    expect(after.last_sync.error).toMatch(/^Could not reach Twilio: /);
    expect(after.last_sync).toMatchObject({ numbers_found: null, senders_added: null });
  });
});

describe('integration connection test', () => {
  it('reports in plain words, through the real SMTP test, when nothing listens', async () => {
    const o = await newOrg();
    const smtp = await createIntegration(o, { ...SMTP_INPUT, details: { server: '127.0.0.1', port: 9 } });
    const res = await o.api('POST', `/integration/${smtp.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data.ok).toBe(false);
    expect(res.body.data.message).toBe('The connection to 127.0.0.1:9 was refused: no SMTP server is listening there, or a firewall blocks it.');
    expectNoSecret(res.text);
  });
});

describe('organisation A cannot reach organisation B integrations', () => {
  it('cannot list, read, update, re-credential, sync, test, delete or bulk-delete them', async () => {
    const a = await newOrg('ia');
    const b = await newOrg('ib');
    const bSmtp = await createIntegration(b, SMTP_INPUT);
    const bTwilio = await createIntegration(b, TWILIO_INPUT);
    await createIntegration(a, { ...SMTP_INPUT, name: 'A own' });

    const list = await a.api('GET', `/integration?ids=${bSmtp.id}&ids=${bTwilio.id}`);
    expect(list.body.meta.total).toBe(0);
    expect((await a.api('GET', '/integration')).body.items.map((i: { name: string }) => i.name)).toEqual(['A own']);
    expect((await a.api('GET', `/integration/${bSmtp.id}`)).status).toBe(404);
    expect((await a.api('PUT', `/integration/${bSmtp.id}`, { name: 'x' })).status).toBe(404);
    expect((await a.api('PATCH', `/integration/${bSmtp.id}/smtp`, { name: 'x' })).status).toBe(404);
    expect((await a.api('PATCH', `/integration/${bSmtp.id}/smtp/credentials`, { user: 'u', password: 'p' })).status).toBe(404);
    expect((await a.api('POST', `/integration/${bTwilio.id}/sync`)).status).toBe(404);
    expect((await a.api('POST', `/integration/${bSmtp.id}/test`)).status).toBe(404);
    expect((await a.api('DELETE', `/integration/${bSmtp.id}`)).status).toBe(404);
    expect((await a.api('POST', '/integration/priorities', { ids: [bSmtp.id, bTwilio.id] })).status).toBe(404);
    expect((await a.api('DELETE', '/integration', { ids: [bSmtp.id, bTwilio.id] })).body.data.deleted).toBe(0);

    const bList = await b.api('GET', '/integration');
    expect(bList.body.items.map((i: { name: string; status: string }) => [i.name, i.status])).toEqual([
      ['Main SMTP', 'active'],
      ['Twilio', 'active'],
    ]);
    const stored = await row<{ secret: string }>('integrations', bSmtp.id);
    expect(JSON.parse(await decryptSecret(env.SECRETS_KEY, stored!.secret))).toEqual({ password: SMTP_INPUT.password });
  });
});
