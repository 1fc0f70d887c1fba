// The local platform's seeded sending domain (src/modules/domain/seed-example.ts, written by scripts/seed.ts): the
// row it makes and the zone it writes for the DoH stand-in must be exactly what the checks accept, so "Check now"
// verifies it offline; its key is sealed and signs what its published key verifies.
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { decryptSecret } from '../../../src/lib/crypto/secret-box';
import { fromBase64 } from '../../../src/lib/dkim/binary';
import { importDkimKey } from '../../../src/lib/dkim/keys';
import { exampleDomainSeed } from '../../../src/modules/domain/seed-example';
import { newOrg, row } from '../channel-helpers';
import { stubResolver } from './domain-helpers';
import { type FakeAnswer, ok, txt } from './fake-doh';

let zone: Record<string, FakeAnswer>;
beforeEach(() => {
  zone = stubResolver();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the seeded sending domain', () => {
  it('is verified by a check against the zone the seed writes, and seeding again replaces its key', async () => {
    const o = await newOrg('seed');
    const domain = `seeded${Math.floor(Math.random() * 1e9)}.test`;
    const seeded = await exampleDomainSeed({ orgDomain: o.org, domain, secretsKey: env.SECRETS_KEY });
    await env.DB.prepare(seeded.sql).run();
    for (const [key, records] of Object.entries(seeded.zone)) zone[key] = ok(txt(key.replace(/ TXT$/, ''), ...records));
    expect(
      Object.values(seeded.zone)
        .flat()
        .every((strings) => strings.every((s) => s.length <= 255)),
    ).toBe(true);

    const [listed] = (await o.api('GET', '/domain')).body.items;
    expect(listed).toMatchObject({ domain, status: 'pending' });
    const checked = await o.api('POST', `/domain/${listed.id}/check`);
    expect(checked.body.data.status).toBe('verified');
    expect(checked.body.data.records.map((r: { status: string }) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok']);

    // The sealed key signs what the published key verifies.
    const stored = (await row<{ dkim_private_key: string; dkim_public_key: string }>('sending_domains', listed.id))!;
    const signer = await importDkimKey(await decryptSecret(env.SECRETS_KEY, stored.dkim_private_key));
    const data = new TextEncoder().encode('relay');
    const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', signer, data);
    const verifier = await crypto.subtle.importKey('spki', fromBase64(stored.dkim_public_key), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    expect(await crypto.subtle.verify('RSASSA-PKCS1-v1_5', verifier, signature, data)).toBe(true);

    // Seeding again: a new token and key, the proof to be seen again.
    const again = await exampleDomainSeed({ orgDomain: o.org, domain, secretsKey: env.SECRETS_KEY });
    await env.DB.prepare(again.sql).run();
    const after = (await o.api('GET', `/domain/${listed.id}`)).body.data;
    expect(after).toMatchObject({ status: 'pending', checked_at: null });
    expect((await row<{ dkim_public_key: string }>('sending_domains', listed.id))!.dkim_public_key).not.toBe(stored.dkim_public_key);
  });
});
