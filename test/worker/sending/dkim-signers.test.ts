import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encryptSecret } from '../../../src/lib/crypto/secret-box';
import { generateDkimKeyPair } from '../../../src/lib/dkim/keys';
import { asciiDomainOf, DkimSigners, type SigningDomain, signingDomainFor } from '../../../src/modules/sending/dkim-signers';

// Which verified domain signs a From address (the domain itself, else its nearest verified parent), and that a
// domain's key is decrypted and imported once, not per message (src/modules/sending/dkim-signers.ts).

const domain = (id: number, name: string, sealedKey = 'unused'): SigningDomain => ({ id, domain: name, selector: 'relay1', sealedKey });
let nextId = 900_000;

describe('the signing domain of an address', () => {
  const domains = [domain(1, 'example.com'), domain(2, 'news.example.com'), domain(3, 'example.co.uk')];

  it('is the domain itself, else its nearest verified parent, never a name that merely ends the same', () => {
    expect(signingDomainFor('example.com', domains)?.id).toBe(1);
    expect(signingDomainFor('news.example.com', domains)?.id).toBe(2);
    expect(signingDomainFor('eu.news.example.com', domains)?.id).toBe(2);
    expect(signingDomainFor('mail.example.com', domains)?.id).toBe(1);
    expect(signingDomainFor('shop.example.co.uk', domains)?.id).toBe(3);
    expect(signingDomainFor('badexample.com', domains)).toBeNull();
    expect(signingDomainFor('co.uk', domains)).toBeNull();
    expect(signingDomainFor('example.org', [])).toBeNull();
  });

  it("takes the address's domain as stored: lower case, punycode, no final dot", () => {
    expect(asciiDomainOf('News@Mail.Example.COM')).toBe('mail.example.com');
    expect(asciiDomainOf('hello@bücher.example.')).toBe('xn--bcher-kva.example');
    expect(asciiDomainOf('no-at-sign')).toBeNull();
  });
});

describe('DkimSigners', () => {
  afterEach(() => vi.restoreAllMocks());

  it('imports a domain key once for all its addresses and batches, and signs with d= the signing domain', async () => {
    const pair = await generateDkimKeyPair();
    const verified = domain(++nextId, 'example.com', await encryptSecret(env.SECRETS_KEY, pair.privateKeyPem));
    const imports = vi.spyOn(crypto.subtle, 'importKey');
    const batch = new DkimSigners(env, [verified]);
    const [a, b] = await Promise.all([batch.signerFor('a@example.com'), batch.signerFor('b@mail.example.com')]);
    expect(a).toMatchObject({ domain: 'example.com', selector: 'relay1' });
    expect(b?.key).toBe(a?.key);
    expect(await batch.signerFor('x@other.example')).toBeNull();
    const rsaImports = () => imports.mock.calls.filter(([, , algorithm]) => (algorithm as { name?: string })?.name === 'RSASSA-PKCS1-v1_5').length;
    expect(rsaImports()).toBe(1);
    // The next batch of the isolate reuses the imported key while the sealed key read is the same.
    expect((await new DkimSigners(env, [verified]).signerFor('c@example.com'))?.key).toBe(a?.key);
    expect(rsaImports()).toBe(1);
    // A new key under the same selector (read for a later batch) is imported, not the old one used.
    const replaced = await generateDkimKeyPair();
    const next = await new DkimSigners(env, [{ ...verified, sealedKey: await encryptSecret(env.SECRETS_KEY, replaced.privateKeyPem) }]).signerFor(
      'd@example.com',
    );
    expect(next?.key).not.toBe(a?.key);
    expect(rsaImports()).toBe(2);
  });

  it('sends unsigned (null), without throwing, when the key cannot be read', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = new DkimSigners(env, [domain(++nextId, 'broken.example', 'v1.gone.AAAA.AAAA')]);
    expect(await broken.signerFor('news@broken.example')).toBeNull();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('broken.example'));
    expect(await DkimSigners.none.signerFor('news@example.com')).toBeNull();
  });
});
