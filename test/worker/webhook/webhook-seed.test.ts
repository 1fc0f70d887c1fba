// The local platform's seeded webhook endpoint (src/modules/webhook/seed-example.ts, written by scripts/seed.ts): one
// endpoint on the webhook catcher taking every event, its secret sealed with SECRETS_KEY; seeding again keeps one
// endpoint and the secret the catcher was given, and leaves what a person changed on it.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { decryptSecret } from '../../../src/lib/crypto/secret-box';
import { EXAMPLE_WEBHOOK, exampleWebhookSql } from '../../../src/modules/webhook/seed-example';
import { newOrg } from '../channel-helpers';

interface EndpointRow {
  id: number;
  url: string;
  description: string;
  event_types: string;
  enabled: number;
  batch: number;
  secret: string;
}

const endpointsOf = async (orgId: number) =>
  (await env.DB.prepare('SELECT * FROM webhook_endpoints WHERE org_id = ? ORDER BY id').bind(orgId).all<EndpointRow>()).results;

describe('the seeded webhook endpoint', () => {
  it('is one endpoint on the catcher for every event, its secret sealed; seeding again keeps it and its secret', async () => {
    const o = await newOrg('whseed');
    const other = await newOrg('whseed');
    const first = await exampleWebhookSql({ orgDomain: o.org, secretsKey: env.SECRETS_KEY, port: 8029 });
    await env.DB.exec(first.sql);
    expect(first.url).toBe('http://127.0.0.1:8029/relay');
    expect(first.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const [row, ...more] = await endpointsOf(o.orgId);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ url: first.url, description: EXAMPLE_WEBHOOK.description, event_types: '["*"]', enabled: 1, batch: 0 });
    expect(row.secret).not.toContain(first.secret);
    expect(await decryptSecret(env.SECRETS_KEY, row.secret)).toBe(first.secret);
    expect(await endpointsOf(other.orgId)).toEqual([]);

    // A person turned it off; the next start hands back the secret the catcher has: one endpoint, still off, same secret.
    await env.DB.prepare('UPDATE webhook_endpoints SET enabled = 0 WHERE id = ?').bind(row.id).run();
    const again = await exampleWebhookSql({ orgDomain: o.org, secretsKey: env.SECRETS_KEY, port: 8029, secret: first.secret });
    await env.DB.exec(again.sql);
    const [after, ...none] = await endpointsOf(o.orgId);
    expect(none).toEqual([]);
    expect(after).toMatchObject({ id: row.id, enabled: 0 });
    expect(after.secret).not.toBe(row.secret); // sealed again (a new IV), so a new SECRETS_KEY never strands it
    expect(await decryptSecret(env.SECRETS_KEY, after.secret)).toBe(first.secret);

    // Without a secret from an earlier start (the file was removed), a new one.
    const fresh = await exampleWebhookSql({ orgDomain: o.org, secretsKey: env.SECRETS_KEY, port: 8029 });
    await env.DB.exec(fresh.sql);
    expect(fresh.secret).not.toBe(first.secret);
    expect(await decryptSecret(env.SECRETS_KEY, (await endpointsOf(o.orgId))[0].secret)).toBe(fresh.secret);
  });
});
