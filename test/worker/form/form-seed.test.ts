// The local platform's seeded form (src/modules/form/seed-example.ts, written by scripts/seed.ts after the audience
// and channels): "Newsletter sign-up" offering the organisation's subscriptions, email and name, double opt-in, the
// example email sender, the local origin; seeding again keeps the one form as a person left it.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { exampleAudienceSql } from '../../../src/modules/contact/seed-example';
import { EXAMPLE_FORM, exampleFormSql } from '../../../src/modules/form/seed-example';
import { EXAMPLE_CHANNELS, exampleChannelsSql } from '../../../src/modules/integration/seed-example';
import { newOrg } from '../channel-helpers';

const exec = async (sql: string) => {
  for (const statement of sql
    .split(/;\s*\n/)
    .map((s) => s.trim().replace(/;$/, ''))
    .filter(Boolean))
    await env.DB.prepare(statement).run();
};

describe('the seeded form', () => {
  it('is one enabled double opt-in form on the seeded subscriptions and sender, valid for the API; seeding again keeps it', async () => {
    const o = await newOrg('formseed');
    const other = await newOrg('formseed');
    await exec(exampleAudienceSql(o.org));
    await exec((await exampleChannelsSql({ org: { domain: o.org }, secretsKey: env.SECRETS_KEY })).sql);
    const seedForm = exampleFormSql({ orgDomain: o.org, emailSender: EXAMPLE_CHANNELS.emailSender });
    await exec(seedForm);

    const listed = await o.api('GET', '/form');
    expect(listed.body.meta.total).toBe(1);
    const [form] = listed.body.items;
    const subscriptions = (await o.api('GET', '/subscription')).body.items.map((s: { id: number }) => s.id);
    const email = (await o.api('GET', '/sender')).body.items.find((s: { value: string }) => s.value === EXAMPLE_CHANNELS.emailSender);
    expect(subscriptions.length).toBeGreaterThan(0);
    expect(form).toMatchObject({
      name: EXAMPLE_FORM.name,
      subscription_ids: subscriptions,
      fields: EXAMPLE_FORM.fields,
      double_opt_in: true,
      enabled: true,
      sender_id: email.id,
      allowed_origins: ['http://localhost:8787'],
    });
    expect(form.public_key).toMatch(/^[A-Za-z0-9]{22}$/);
    // What the seed wrote passes the API's own checks unchanged.
    const { id, public_key, url, signups, created_at, updated_at, ...input } = form;
    const put = await o.api('PUT', `/form/${id}`, input);
    expect(put.status, put.text).toBe(200);

    await o.api('PATCH', `/form/${id}`, { enabled: false });
    await exec(exampleFormSql({ orgDomain: o.org, emailSender: EXAMPLE_CHANNELS.emailSender }));
    const again = (await o.api('GET', '/form')).body.items;
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ id, public_key, enabled: false });
    expect((await other.api('GET', '/form')).body.meta.total).toBe(0);
  });
});
