// SECRETS_KEY rotation (README "Rotating SECRETS_KEY"): the housekeeping job re-seals sending domains' DKIM keys,
// current and next, sealed with an older entry of the ring, without changing the key.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { decryptSecret, encryptSecret } from '../../../src/lib/crypto/secret-box';
import { resealDomainKeys } from '../../../src/modules/domain/reseal';
import { newOrg, row } from '../channel-helpers';
import { uniqueDomain } from './domain-helpers';

const OLD = env.SECRETS_KEY;
const RING = `k2:a-new-secrets-key-a-new-secrets-key-0123456789,${OLD}`;

describe('SECRETS_KEY rotation', () => {
  it("re-seals the domains' DKIM keys with the new entry; they open with the new ring alone afterwards", async () => {
    const o = await newOrg('rsl');
    const created = (await o.api('POST', '/domain', { domain: uniqueDomain('reseal') })).body.data;
    const nextPem = '-----BEGIN PRIVATE KEY-----\nnext\n-----END PRIVATE KEY-----\n';
    await env.DB.prepare('UPDATE sending_domains SET next_dkim_selector = ?, next_dkim_public_key = ?, next_dkim_private_key = ? WHERE id = ?')
      .bind('relay209901a', 'AAAA', await encryptSecret(OLD, nextPem), created.id)
      .run();
    type Keys = { dkim_private_key: string; next_dkim_private_key: string };
    const before = (await row<Keys>('sending_domains', created.id))!;
    const pem = await decryptSecret(OLD, before.dkim_private_key);
    expect(before.dkim_private_key.split('.')[1]).toBe('test1');

    const db = createDb(env.DB);
    expect(await resealDomainKeys(db, { SECRETS_KEY: RING }, 10_000)).toBeGreaterThanOrEqual(2);
    const after = (await row<Keys>('sending_domains', created.id))!;
    expect(after.dkim_private_key.split('.')[1]).toBe('k2');
    expect(after.next_dkim_private_key.split('.')[1]).toBe('k2');
    // The old entry can go: the new one alone opens both, and they are the same keys.
    const newOnly = RING.split(',')[0];
    expect(await decryptSecret(newOnly, after.dkim_private_key)).toBe(pem);
    expect(await decryptSecret(newOnly, after.next_dkim_private_key)).toBe(nextPem);
    // A second run finds nothing of this row to do.
    await resealDomainKeys(db, { SECRETS_KEY: RING }, 10_000);
    expect((await row<Keys>('sending_domains', created.id))!.dkim_private_key).toBe(after.dkim_private_key);
  });
});
