import { describe, expect, it } from 'vitest';
import { createIntegration, createSender, newOrg, SMTP_INPUT, TWILIO_INPUT } from '../channel-helpers';

describe('senders', () => {
  it('creates email and phone senders on integrations of the matching kind', async () => {
    const o = await newOrg();
    const smtp = await createIntegration(o, SMTP_INPUT);
    const twilio = await createIntegration(o, TWILIO_INPUT);
    const email = await createSender(o, { integration_id: smtp.id, type: 'email', value: ' Hello@Acme.test ', name: 'Acme', note: 'main' });
    expect(email).toMatchObject({
      type: 'email',
      value: 'hello@acme.test',
      name: 'Acme',
      note: 'main',
      integration: { id: smtp.id, name: 'Main SMTP', type: 'smtp' },
    });
    // A phone sender has no name: it is dropped.
    const phone = await createSender(o, { integration_id: twilio.id, type: 'phone', value: '+15005550006', name: 'ignored' });
    expect(phone).toMatchObject({ type: 'phone', value: '+15005550006', name: null, integration_id: twilio.id });

    let res = await o.api('POST', '/sender', { integration_id: twilio.id, type: 'email', value: 'a@acme.test' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ integration_id: ['Email senders need an smtp integration'] });
    res = await o.api('POST', '/sender', { integration_id: smtp.id, type: 'phone', value: '+15005550007' });
    expect(res.body.error.fields).toEqual({ integration_id: ['Phone senders need a twilio integration'] });
    res = await o.api('POST', '/sender', { integration_id: 999999, type: 'email', value: 'a@acme.test' });
    expect(res.body.error.fields).toEqual({ integration_id: ['Integration not found'] });
  });

  it('validates the value by type and requires integration, type and value', async () => {
    const o = await newOrg();
    const smtp = await createIntegration(o, SMTP_INPUT);
    const twilio = await createIntegration(o, TWILIO_INPUT);
    let res = await o.api('POST', '/sender', {});
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toMatchObject({
      integration_id: ['This field is required'],
      type: ['This field is required'],
      value: ['This field is required'],
    });
    res = await o.api('POST', '/sender', { integration_id: smtp.id, type: 'email', value: 'not-an-email' });
    expect(res.body.error.fields).toEqual({ value: ['Invalid email address. Please enter a valid email'] });
    for (const value of ['15005550006', '+1 500 555', '+1500abc']) {
      res = await o.api('POST', '/sender', { integration_id: twilio.id, type: 'phone', value });
      expect(res.status).toBe(422);
      expect(res.body.error.fields.value[0]).toMatch(/must start with '\+' and contain only digits/);
    }
    res = await o.api('POST', '/sender', { integration_id: smtp.id, type: 'fax', value: 'x' });
    expect(res.body.error.fields.type).toEqual(['Type must be email or phone']);
    expect((await o.api('GET', '/sender')).body.meta.total).toBe(0);
  });

  it('keeps integration and type fixed, checks the value against the type on update, refuses duplicates', async () => {
    const o = await newOrg();
    const smtp = await createIntegration(o, SMTP_INPUT);
    const twilio = await createIntegration(o, TWILIO_INPUT);
    const email = await createSender(o, { integration_id: smtp.id, type: 'email', value: 'a@acme.test' });
    const phone = await createSender(o, { integration_id: twilio.id, type: 'phone', value: '+15005550006' });
    let res = await o.api('PATCH', `/sender/${email.id}`, { value: '+15005550006' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ value: ['Invalid email address. Please enter a valid email'] });
    res = await o.api('PATCH', `/sender/${email.id}`, { type: 'phone' });
    expect(res.status).toBe(422);
    res = await o.api('PATCH', `/sender/${email.id}`, { integration_id: twilio.id });
    expect(res.status).toBe(422);
    res = await o.api('PUT', `/sender/${phone.id}`, { value: '+15005550008', name: 'Named' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ value: '+15005550008', name: null, type: 'phone' });
    res = await o.api('PATCH', `/sender/${email.id}`, { name: 'Support' });
    expect(res.body.data).toMatchObject({ value: 'a@acme.test', name: 'Support' });

    res = await o.api('POST', '/sender', { integration_id: smtp.id, type: 'email', value: 'A@acme.test' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ value: ['Value already exists, use a different one.'] });
  });

  it('pages on the server, filters, searches and reorders by drag', async () => {
    const o = await newOrg();
    const smtp = await createIntegration(o, SMTP_INPUT);
    const twilio = await createIntegration(o, TWILIO_INPUT);
    const ids: number[] = [];
    for (let i = 1; i <= 12; i++)
      ids.push((await createSender(o, { integration_id: smtp.id, type: 'email', value: `s${String(i).padStart(2, '0')}@acme.test` })).id);
    await createSender(o, { integration_id: twilio.id, type: 'phone', value: '+15005550006' });
    let res = await o.api('GET', '/sender');
    expect(res.body.meta).toEqual({ total: 13, page: 1, page_size: 10, total_pages: 2 });
    res = await o.api('GET', '/sender?type=phone');
    expect(res.body.items.map((s: { value: string }) => s.value)).toEqual(['+15005550006']);
    res = await o.api('GET', `/sender?integration_id=${twilio.id}`);
    expect(res.body.meta.total).toBe(1);
    res = await o.api('GET', '/sender?search=s1');
    expect(res.body.items.map((s: { value: string }) => s.value)).toEqual(['s10@acme.test', 's11@acme.test', 's12@acme.test']);
    res = await o.api('POST', '/sender/priorities', { ids: [ids[2], ids[0], ids[1]] });
    expect(res.status).toBe(200);
    res = await o.api('GET', '/sender?page_size=3');
    expect(res.body.items.map((s: { id: number }) => s.id)).toEqual([ids[2], ids[0], ids[1]]);
  });
});

describe('organisation A cannot reach organisation B senders', () => {
  it('cannot use B integrations, nor list, read, update, delete or reorder B senders', async () => {
    const a = await newOrg('sa');
    const b = await newOrg('sb');
    const bSmtp = await createIntegration(b, SMTP_INPUT);
    const bSender = await createSender(b, { integration_id: bSmtp.id, type: 'email', value: 'b@acme.test' });

    const res = await a.api('POST', '/sender', { integration_id: bSmtp.id, type: 'email', value: 'a@acme.test' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ integration_id: ['Integration not found'] });
    expect((await a.api('GET', `/sender?ids=${bSender.id}`)).body.meta.total).toBe(0);
    expect((await a.api('GET', `/sender/${bSender.id}`)).status).toBe(404);
    expect((await a.api('PATCH', `/sender/${bSender.id}`, { name: 'x' })).status).toBe(404);
    expect((await a.api('DELETE', `/sender/${bSender.id}`)).status).toBe(404);
    expect((await a.api('POST', '/sender/priorities', { ids: [bSender.id] })).status).toBe(404);
    expect((await a.api('DELETE', '/sender', { ids: [bSender.id] })).body.data.deleted).toBe(0);
    expect((await b.api('GET', `/sender/${bSender.id}`)).body.data).toMatchObject({ value: 'b@acme.test', name: null });
  });
});
