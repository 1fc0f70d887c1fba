import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ANSWER_SCHEMAS, type AnswerSchema } from '../../../src/modules/api-docs/answer-schemas';
import { deliverAll, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { call } from '../helpers';

// Every entity the API answers, parsed with the zod object its TypeScript type is inferred from and its OpenAPI
// component is generated from (src/modules/api-docs/answer-schemas.ts). The objects are strict: an answer that
// lacks a key, carries one the schema does not list, or has a value of another type fails here.

type Setup = Awaited<ReturnType<typeof setup>>;

/** Parses an answer with its schema; on failure the message names the schema, the path and the problem. */
function expectShape(name: AnswerSchema, value: unknown) {
  expect(value, `${name}: no answer`).toBeTruthy();
  const result = (ANSWER_SCHEMAS[name] as z.ZodType).safeParse(value);
  const problems = result.success ? [] : result.error.issues.map((issue) => `${name}.${issue.path.join('.')}: ${issue.message}`);
  expect(problems).toEqual([]);
}

describe('the answers as the zod answer schemas describe them', () => {
  let s: Setup;
  const get = async (path: string) => {
    const res = await s.o.api('GET', path);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const post = async (path: string, json: unknown) => {
    const res = await s.o.api('POST', path, json);
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };

  beforeAll(async () => {
    s = await setup('shapes');
  });

  it('the account: the user, the organisation, sessions and API keys', async () => {
    expectShape('CurrentUser', (await get('/internal-user/me')).data);
    expectShape('Organization', (await get('/internal-user/me')).data.organization);
    expectShape('OrganizationSettings', (await get('/organization')).data);
    expectShape('Session', (await get('/session')).items[0]);
    expectShape('ApiKey', await post('/internal-api-key', { note: 'shapes' }));
    expectShape('ApiKey', (await get('/internal-api-key')).items[0]);
    const orgKey = await post('/organization-api-key', { name: 'Shapes', scope: 'read' });
    expectShape('OrgApiKey', orgKey);
    expectShape('OrgApiKey', (await get('/organization-api-key')).items[0]);
    const revoked = await s.o.api('DELETE', `/organization-api-key/${orgKey.id}`);
    expectShape('OrgApiKey', revoked.body.data);
  });

  it('the audience: tags, subscriptions, fields, contacts, the blacklist and the activity log', async () => {
    expectShape('Tag', s.tag);
    expectShape('Tag', (await get('/tag')).items[0]);
    expectShape('Subscription', s.subscription);
    const field = await post('/field', { name: 'Plan', alias: 'plan', type: 'select', options: [{ value: 'Pro' }, { value: 'Free' }] });
    expectShape('Field', field);
    const contact = await post('/contact', {
      name: 'Eve',
      note: 'shapes',
      addresses: [{ type: 'email', value: 'eve@example.com' }],
      tags: [s.tag.id],
      attributes: [{ field_id: field.id, value: { option_id: field.options[0].id } }],
    });
    expectShape('Contact', contact);
    expectShape('Contact', (await get('/contact')).items[0]);
    const put = await s.o.api('PUT', `/contact/${contact.id}/memberships`, { memberships: [{ subscription_id: s.subscription.id, status: 'confirmed' }] });
    expect(put.status, put.text).toBe(200);
    expectShape('ContactMemberships', put.body.data);
    expectShape('ContactMemberships', (await get(`/contact/${contact.id}/memberships`)).data);
    const members = (await get(`/subscription/${s.subscription.id}/members`)).items;
    expect(members.length).toBeGreaterThan(0);
    for (const member of members) expectShape('SubscriptionMember', member);
    expectShape('BlacklistEntry', await post('/blacklist', { type: 'email', value: 'gone@example.com', info: 'asked' }));
    const log = (await get('/activity-log')).items;
    expect(log.length).toBeGreaterThan(0);
    for (const entry of log) expectShape('ActivityLogEntry', entry);
  });

  it('channels: integrations, senders, templates and campaigns', async () => {
    for (const integration of (await get('/integration')).items) expectShape('Integration', integration);
    for (const sender of (await get('/sender')).items) expectShape('Sender', sender);
    expectShape('Template', s.email);
    expectShape('Template', (await get(`/template/${s.text.id}`)).data);
    for (const item of (await get('/template')).items) expectShape('TemplateListItem', item);
    const campaign = await post('/campaign', {
      name: 'Spring',
      settings: [{ template_id: s.email.id, sender_id: s.ch.email.id, to_address: 'team@example.com' }],
    });
    expectShape('Campaign', campaign);
  });

  it('a sent broadcast, its recipients and its messages', async () => {
    const id = await startable(s.o, s.body());
    await deliverAll(await runAlarm(s.o, id));
    expectShape('Broadcast', (await get(`/broadcast/${id}`)).data);
    for (const row of (await get('/broadcast')).items) expectShape('Broadcast', row);
    const recipients = (await get(`/broadcast/${id}/recipients`)).items;
    expect(recipients.length).toBeGreaterThan(0);
    for (const row of recipients) expectShape('BroadcastRecipient', row);
    const messages = (await get(`/message?broadcast_id=${id}`)).items;
    expect(messages.length).toBeGreaterThan(0);
    for (const row of messages) expectShape('MessageListItem', row);
    expectShape('Message', (await get(`/message/${messages[0].id}`)).data);
  });

  it('an import', async () => {
    const res = await call(s.o.org, '/api/v1/import/upload?file_name=people.csv', {
      method: 'POST',
      token: s.o.token,
      body: 'name,email\nZoe,zoe@example.com\n',
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(201);
    const { file_key } = ((await res.json()) as { data: { file_key: string } }).data;
    const created = await post('/import', {
      file_key,
      file_name: 'people.csv',
      mapping: [
        { column: 0, target: 'name' },
        { column: 1, target: 'address', address_type: 'email' },
      ],
    });
    expectShape('Import', created);
    expectShape('Import', (await get(`/import/${created.id}`)).data);
  });

  it('fails on an answer that is not the shape (the check can fail)', () => {
    const tag = { id: 1, name: 'VIP', priority: 0, created_at: '2026-11-26T10:00:00.000Z', updated_at: '2026-11-26T10:00:00.000Z' };
    expect(ANSWER_SCHEMAS.Tag.safeParse(tag).success).toBe(true);
    expect(ANSWER_SCHEMAS.Tag.safeParse({ ...tag, secret: 'x' }).success).toBe(false);
    expect(ANSWER_SCHEMAS.Tag.safeParse({ ...tag, created_at: '26/11/2026' }).success).toBe(false);
    const { priority: _, ...withoutPriority } = tag;
    expect(ANSWER_SCHEMAS.Tag.safeParse(withoutPriority).success).toBe(false);
  });
});
