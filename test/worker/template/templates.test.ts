import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readUnsubscribeToken } from '../../../src/lib/templating/unsubscribe-link';
import { createTemplate, insertAttribute, insertContact, insertField, newOrg, type Org } from '../channel-helpers';

const EMAIL = {
  type: 'email',
  name: 'Welcome',
  alias: 'welcome',
  subject: 'Hi {{ contact.name }}',
  body: '<p>Hello {{ contact.name }} from {{ organization.name }}</p>',
  body_plain: 'Hello {{ contact.name }}',
};

/** A contact with addresses and one value of every field type. */
async function richContact(o: Org) {
  const city = await insertField(o.orgId, 'city', 'text');
  const age = await insertField(o.orgId, 'age', 'number');
  const vip = await insertField(o.orgId, 'vip', 'boolean');
  const plan = await insertField(o.orgId, 'plan', 'select', ['silver', 'gold']);
  const interests = await insertField(o.orgId, 'interests', 'multiselect', ['golf', 'chess', 'tennis']);
  await insertField(o.orgId, 'empty_multi', 'multiselect', ['a']);
  const id = await insertContact(
    o.orgId,
    'Ann Lee',
    [
      { type: 'phone', value: '+15550001' },
      { type: 'email', value: 'ann@example.com' },
      { type: 'email', value: 'ann.work@example.com' },
    ],
    'likes tea',
  );
  await insertAttribute(o.orgId, id, city.id, { text: 'Oslo' });
  await insertAttribute(o.orgId, id, age.id, { number: 41 });
  await insertAttribute(o.orgId, id, vip.id, { number: 1 });
  await insertAttribute(o.orgId, id, plan.id, { optionId: plan.optionIds.gold });
  await insertAttribute(o.orgId, id, interests.id, { optionId: interests.optionIds.tennis });
  await insertAttribute(o.orgId, id, interests.id, { optionId: interests.optionIds.golf });
  return id;
}

describe('templates', () => {
  it('creates each type, keeps a subject on html and email and a plain body on email only, and keeps the type fixed', async () => {
    const o = await newOrg();
    const email = await createTemplate(o, EMAIL);
    expect(email).toMatchObject({ ...EMAIL, note: null, attachments: [] });
    const html = await createTemplate(o, { type: 'html', name: 'Page', body: '<b>x</b>', subject: 'Kept', body_plain: 'dropped' });
    expect(html).toMatchObject({ type: 'html', subject: 'Kept', body_plain: null });
    const text = await createTemplate(o, { type: 'text', name: 'SMS', body: 'Hi {{ contact.name }}', subject: 'dropped' });
    expect(text).toMatchObject({ type: 'text', subject: null });

    let res = await o.api('PATCH', `/template/${email.id}`, { type: 'text' });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body.error.fields)).toMatch(/type/);
    res = await o.api('PATCH', `/template/${html.id}`, { subject: 'Page {{ contact.name }}', name: 'Page 2', body_plain: 'still dropped' });
    expect(res.body.data).toMatchObject({ name: 'Page 2', subject: 'Page {{ contact.name }}', body_plain: null, type: 'html' });
    // Its subject is checked on save like an email template's.
    res = await o.api('PATCH', `/template/${html.id}`, { subject: '{{ contact.name' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields)).toEqual(['subject']);
    res = await o.api('PUT', `/template/${email.id}`, { name: 'Welcome 2', body: 'B' });
    expect(res.status).toBe(200);
    // PUT replaces: what it leaves out is cleared.
    expect(res.body.data).toMatchObject({ name: 'Welcome 2', body: 'B', subject: null, alias: null, body_plain: null, type: 'email' });
  });

  it('requires type, name and body; refuses a duplicate alias', async () => {
    const o = await newOrg();
    let res = await o.api('POST', '/template', { body: '   ' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ type: ['This field is required'], name: ['This field is required'], body: ['This field is required'] });
    res = await o.api('POST', '/template', { type: 'pdf', name: 'x', body: 'y' });
    expect(res.body.error.fields).toEqual({ type: ['Type must be html, text or email'] });
    res = await o.api('POST', '/template', { type: 'text', name: 'x', body: 'y', alias: 'bad alias!' });
    expect(res.body.error.fields.alias[0]).toMatch(/letters, digits/);
    await createTemplate(o, { type: 'text', name: 'one', body: 'a', alias: 'promo' });
    res = await o.api('POST', '/template', { type: 'text', name: 'two', body: 'b', alias: 'promo' });
    expect(res.body.error.fields).toEqual({ alias: ['Value already exists, use a different one.'] });
    // Several templates may go without alias.
    await createTemplate(o, { type: 'text', name: 'three', body: 'c', alias: '' });
    await createTemplate(o, { type: 'text', name: 'four', body: 'd' });
    const other = await newOrg();
    await createTemplate(other, { type: 'text', name: 'same alias elsewhere', body: 'a', alias: 'promo' });
  });

  it('refuses a template whose syntax does not parse, on the field that holds it', async () => {
    const o = await newOrg();
    let res = await o.api('POST', '/template', { ...EMAIL, subject: 'Hi {{ contact.name', body: '{% if x %}never closed' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['body', 'subject']);
    expect(res.body.error.fields.body[0]).toMatch(/^Template syntax error: /);
    const t = await createTemplate(o, EMAIL);
    res = await o.api('PATCH', `/template/${t.id}`, { body_plain: '{% for x in %}' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields)).toEqual(['body_plain']);
    expect((await o.api('GET', `/template/${t.id}`)).body.data.body_plain).toBe(EMAIL.body_plain);
  });

  it('lists without bodies, with search, type filter and sort', async () => {
    const o = await newOrg();
    await createTemplate(o, EMAIL);
    await createTemplate(o, { type: 'text', name: 'SMS promo', body: 'x' });
    let res = await o.api('GET', '/template?sort_by=name&sort_order=asc');
    expect(res.body.items.map((t: { name: string }) => t.name)).toEqual(['SMS promo', 'Welcome']);
    expect(res.body.items[0].body).toBeUndefined();
    expect(res.body.items[1]).toMatchObject({ subject: EMAIL.subject, attachments: [] });
    res = await o.api('GET', '/template?type=email');
    expect(res.body.items.map((t: { name: string }) => t.name)).toEqual(['Welcome']);
    res = await o.api('GET', '/template?search=promo');
    expect(res.body.items.map((t: { name: string }) => t.name)).toEqual(['SMS promo']);
  });
});

describe('template preview with placeholders', () => {
  it('renders contact, fields by alias (typed), organisation and a signed unsubscribe link', async () => {
    const o = await newOrg();
    const contactId = await richContact(o);
    const t = await createTemplate(o, {
      type: 'email',
      name: 'Rich',
      subject: '{{ contact.name }} / {{ organization.name }}',
      body: [
        '{{ contact.email }}|{{ contact.phone }}|{{ contact.note }}',
        '{% for a in contact.addresses %}{{ a.type }}:{{ a.value }};{% endfor %}',
        '{{ contact.fields.city }}|{{ contact.fields.age | plus: 1 }}|{% if contact.fields.vip %}vip{% endif %}|{{ contact.fields.plan }}',
        "{{ contact.fields.interests | join: ',' }}|{{ contact.fields.interests | size }}|{{ contact.fields.empty_multi | size }}|[{{ contact.fields.missing }}]",
        '{{ organization.domain }}',
        '{{ unsubscribe_url }}',
      ].join('\n'),
      body_plain: 'Plain {{ contact.fields.city }}',
    });
    const res = await o.api('POST', `/template/${t.id}/preview`, { contact_id: contactId });
    expect(res.status).toBe(200);
    const { subject, body, body_plain } = res.body.data;
    expect(subject).toBe(`Ann Lee / ${o.org} Inc`);
    expect(body_plain).toBe('Plain Oslo');
    const lines = body.split('\n');
    expect(lines.slice(0, 5)).toEqual([
      'ann@example.com|+15550001|likes tea',
      'phone:+15550001;email:ann@example.com;email:ann.work@example.com;',
      'Oslo|42|vip|gold',
      'golf,tennis|2|0|[]',
      o.org,
    ]);
    const url = new URL(lines[5]);
    expect(url.origin).toBe(`http://${o.org}.localhost:8787`);
    expect(url.pathname).toBe('/unsubscribe');
    expect(await readUnsubscribeToken(env, url.searchParams.get('m')!)).toEqual({ orgId: o.orgId, contactId, messageId: null, broadcastId: null });
  });

  it('renders without a contact, and refuses a contact of another organisation', async () => {
    const o = await newOrg();
    const other = await newOrg();
    const foreign = await insertContact(other.orgId, 'Foreign', [{ type: 'email', value: 'f@example.com' }]);
    const t = await createTemplate(o, { type: 'html', name: 'x', body: '<p>[{{ contact.name }}] {{ organization.name }}</p>' });
    let res = await o.api('POST', `/template/${t.id}/preview`, {});
    // body_plain is the text mail clients get: derived from the html, as the mail builder does.
    expect(res.body.data).toEqual({ subject: null, body: `<p>[] ${o.org} Inc</p>`, body_plain: `[] ${o.org} Inc` });
    res = await o.api('POST', `/template/${t.id}/preview`, { contact_id: foreign });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ contact_id: ['Contact not found'] });
    expect(res.text).not.toContain('Foreign');
  });

  it("reports render errors as 'subject generation failed' / 'body generation failed' on the field", async () => {
    const o = await newOrg();
    // Unknown filters are syntax errors, refused on save; an include finds no file only when rendering.
    expect((await o.api('POST', '/template', { ...EMAIL, subject: '{{ contact.name | shout }}' })).body.error.fields.subject[0]).toMatch(
      /undefined filter: shout/,
    );
    const subjectBad = await createTemplate(o, { ...EMAIL, subject: 'Hi {% include "header" %}' });
    let res = await o.api('POST', `/template/${subjectBad.id}/preview`, {});
    expect(res.status).toBe(422);
    expect(res.body.error.message).toMatch(/^subject generation failed: .*header/);
    expect(res.body.error.fields.subject[0]).toMatch(/^subject generation failed: /);
    const bodyBad = await createTemplate(o, { ...EMAIL, alias: 'loop', body: '{% for a in (1..100000000) %}x{% endfor %}' });
    res = await o.api('POST', `/template/${bodyBad.id}/preview`, {});
    expect(res.status).toBe(422);
    expect(res.body.error.fields.body[0]).toMatch(/^body generation failed: .*limit/);
  });
});

describe('organisation A cannot reach organisation B templates', () => {
  it('cannot list, read, update, preview, delete or bulk-delete them', async () => {
    const a = await newOrg('ta');
    const b = await newOrg('tb');
    const bt = await createTemplate(b, EMAIL);
    expect((await a.api('GET', `/template?ids=${bt.id}`)).body.meta.total).toBe(0);
    expect((await a.api('GET', `/template/${bt.id}`)).status).toBe(404);
    expect((await a.api('PUT', `/template/${bt.id}`, { name: 'x', body: 'y' })).status).toBe(404);
    expect((await a.api('POST', `/template/${bt.id}/preview`, {})).status).toBe(404);
    expect((await a.api('DELETE', `/template/${bt.id}`)).status).toBe(404);
    expect((await a.api('DELETE', '/template', { ids: [bt.id] })).body.data.deleted).toBe(0);
    expect((await b.api('GET', `/template/${bt.id}`)).body.data.name).toBe('Welcome');
  });
});
