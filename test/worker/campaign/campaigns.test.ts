import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { channels, createTemplate, newOrg, type Org } from '../channel-helpers';

async function setup() {
  const o = await newOrg();
  const ch = await channels(o);
  const email = await createTemplate(o, { type: 'email', name: 'Newsletter', subject: 's', body: 'b' });
  const html = await createTemplate(o, { type: 'html', name: 'Landing', body: 'b' });
  const text = await createTemplate(o, { type: 'text', name: 'SMS', body: 'b' });
  return { o, ...ch, templates: { email, html, text } };
}

const settingsCount = async (o: Org) =>
  (await env.DB.prepare('SELECT COUNT(*) AS n FROM campaign_settings WHERE org_id = ?').bind(o.orgId).first<{ n: number }>())!.n;

describe('campaigns', () => {
  it('creates a campaign with its settings and presents read-only template and sender objects', async () => {
    const { o, email, phone, templates } = await setup();
    const res = await o.api('POST', '/campaign', {
      name: 'Spring',
      alias: 'spring',
      note: 'two channels',
      settings: [
        { template_id: templates.email.id, sender_id: email.id, to_address: 'team@example.com' },
        { template_id: templates.text.id, sender_id: phone.id },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Spring',
      alias: 'spring',
      note: 'two channels',
      settings: [
        {
          template_id: templates.email.id,
          sender_id: email.id,
          to_address: 'team@example.com',
          template: { id: templates.email.id, name: 'Newsletter', type: 'email' },
          sender: { id: email.id, value: 'hello@acme.test', name: 'Acme', type: 'email' },
        },
        { template_id: templates.text.id, sender_id: phone.id, to_address: null, sender: { type: 'phone', value: '+15005550006', name: null } },
      ],
    });
    const read = await o.api('GET', `/campaign/${res.body.data.id}`);
    expect(read.body.data.settings).toHaveLength(2);
    const list = await o.api('GET', '/campaign');
    expect(list.body.items[0].settings.map((s: { template: { name: string } }) => s.template.name)).toEqual(['Newsletter', 'SMS']);
  });

  it('requires a name and at least one setting, each with template and sender', async () => {
    const { o } = await setup();
    let res = await o.api('POST', '/campaign', {});
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ name: ['This field is required'], settings: ['At least one item must be selected'] });
    res = await o.api('POST', '/campaign', { name: 'x', settings: [] });
    expect(res.body.error.fields).toEqual({ settings: ['At least one item must be selected'] });
    res = await o.api('POST', '/campaign', { name: 'x', settings: [{}] });
    expect(res.body.error.fields).toEqual({ 'settings.0.template_id': ['This field is required'], 'settings.0.sender_id': ['This field is required'] });
    expect((await o.api('GET', '/campaign')).body.meta.total).toBe(0);
    expect(await settingsCount(o)).toBe(0);
  });

  it('refuses templates and senders that do not fit each other, unknown ids and bad to_address, per entry', async () => {
    const { o, email, phone, templates } = await setup();
    const res = await o.api('POST', '/campaign', {
      name: 'Mismatch',
      settings: [
        { template_id: templates.email.id, sender_id: email.id },
        { template_id: templates.email.id, sender_id: phone.id },
        { template_id: templates.html.id, sender_id: phone.id },
        { template_id: 999999, sender_id: 999998 },
        { template_id: templates.text.id, sender_id: phone.id, to_address: 'not-a-phone' },
        { template_id: templates.email.id, sender_id: email.id, to_address: 'not-an-email' },
        { template_id: templates.text.id, sender_id: email.id },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({
      'settings.1.sender_id': ['Email templates are sent by email: choose an email sender'],
      'settings.2.sender_id': ['HTML templates are sent by email: choose an email sender'],
      'settings.3.template_id': ['Template not found'],
      'settings.3.sender_id': ['Sender not found'],
      'settings.4.to_address': [expect.stringMatching(/must start with '\+'/)],
      'settings.5.to_address': ['Invalid email address. Please enter a valid email'],
      'settings.6.sender_id': ['Text templates go out as SMS: choose a phone sender'],
    });
    expect((await o.api('GET', '/campaign')).body.meta.total).toBe(0);
  });

  it('replaces the settings on update in one batch and keeps them on a patch without settings', async () => {
    const { o, email, phone, templates } = await setup();
    const created = await o.api('POST', '/campaign', { name: 'C', settings: [{ template_id: templates.email.id, sender_id: email.id }] });
    const id = created.body.data.id;
    let res = await o.api('PATCH', `/campaign/${id}`, { note: 'n' });
    expect(res.body.data).toMatchObject({ note: 'n', settings: [{ template_id: templates.email.id }] });
    res = await o.api('PUT', `/campaign/${id}`, {
      name: 'C2',
      settings: [
        { template_id: templates.text.id, sender_id: phone.id },
        { template_id: templates.html.id, sender_id: email.id },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.settings.map((s: { template: { name: string } }) => s.template.name)).toEqual(['SMS', 'Landing']);
    expect(await settingsCount(o)).toBe(2);
    // A refused update changes nothing.
    res = await o.api('PUT', `/campaign/${id}`, { name: 'C3', settings: [{ template_id: templates.email.id, sender_id: phone.id }] });
    expect(res.status).toBe(422);
    expect((await o.api('GET', `/campaign/${id}`)).body.data).toMatchObject({
      name: 'C2',
      settings: [{ template_id: templates.text.id }, { template_id: templates.html.id }],
    });
  });

  it('keeps alias unique per organisation, and a failed write leaves no settings behind', async () => {
    const { o, email, templates } = await setup();
    const setting = [{ template_id: templates.email.id, sender_id: email.id }];
    expect((await o.api('POST', '/campaign', { name: 'A', alias: 'promo', settings: setting })).status).toBe(201);
    const dup = await o.api('POST', '/campaign', { name: 'B', alias: 'promo', settings: setting });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields).toEqual({ alias: ['Value already exists, use a different one.'] });
    expect(await settingsCount(o)).toBe(1);
    const second = await o.api('POST', '/campaign', { name: 'B', alias: 'other', settings: setting });
    const renamed = await o.api('PUT', `/campaign/${second.body.data.id}`, { name: 'B', alias: 'promo', settings: [...setting, ...setting] });
    expect(renamed.status).toBe(422);
    expect(await settingsCount(o)).toBe(2);
    expect((await o.api('GET', '/campaign?search=promo')).body.items.map((c: { name: string }) => c.name)).toEqual(['A']);
  });
});

describe('organisation A cannot reach organisation B campaigns', () => {
  it("cannot use B templates or senders, nor list, read, update or delete B's campaigns", async () => {
    const a = await setup();
    const b = await setup();
    const bCampaign = (await b.o.api('POST', '/campaign', { name: 'B', settings: [{ template_id: b.templates.email.id, sender_id: b.email.id }] })).body.data;
    let res = await a.o.api('POST', '/campaign', {
      name: 'A',
      settings: [
        { template_id: b.templates.email.id, sender_id: a.email.id },
        { template_id: a.templates.email.id, sender_id: b.email.id },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ 'settings.0.template_id': ['Template not found'], 'settings.1.sender_id': ['Sender not found'] });
    expect((await a.o.api('GET', `/campaign?ids=${bCampaign.id}`)).body.meta.total).toBe(0);
    expect((await a.o.api('GET', `/campaign/${bCampaign.id}`)).status).toBe(404);
    res = await a.o.api('PUT', `/campaign/${bCampaign.id}`, { name: 'x', settings: [{ template_id: a.templates.email.id, sender_id: a.email.id }] });
    expect(res.status).toBe(404);
    expect((await a.o.api('DELETE', `/campaign/${bCampaign.id}`)).status).toBe(404);
    expect((await a.o.api('DELETE', '/campaign', { ids: [bCampaign.id] })).body.data.deleted).toBe(0);
    expect((await b.o.api('GET', `/campaign/${bCampaign.id}`)).body.data).toMatchObject({ name: 'B', settings: [{ template_id: b.templates.email.id }] });
  });
});
