import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sendingDomains } from '../../db/schema';
import type { Env } from '../../env';
import { decryptSecret } from '../../lib/crypto/secret-box';
import { importDkimKey } from '../../lib/dkim/keys';
import type { DkimSigner } from '../../lib/dkim/sign';
import { IsolateCache } from '../../lib/isolate-cache';
import { domainOf } from '../../lib/mime/message-id';

// Which DKIM key signs an email (issue 37): the organisation's verified sending domain equal to the From address's
// domain, else the nearest verified parent of it (d= that domain: DMARC's relaxed alignment takes a parent of the
// same organisational domain); none, and the mail goes unsigned. The organisation's verified domains are read once
// per send invocation (SendChannels.dkimSigners), and each key is decrypted and imported once per isolate for a
// while (importing parses the key, which costs more than a signature), never per message.

/** A verified domain as signing needs it; the private key still sealed with SECRETS_KEY. */
export interface SigningDomain {
  id: number;
  /** Lower case, ASCII (punycode). */
  domain: string;
  selector: string;
  sealedKey: string;
}

/**
 * How long an imported key is kept in the isolate. Keyed by the domain's id and selector and checked against the
 * sealed text read for the batch, so a rotated or replaced key is never used: the life only bounds the memory.
 */
const KEY_LIFE_MS = 10 * 60_000;
const importedKeys = new IsolateCache<string, { sealed: string; key: Promise<CryptoKey> }>(KEY_LIFE_MS, 200);

/** The organisation's verified domains (lost or pending ones have no verified_at, and never sign). */
export async function loadSigningDomains(db: Database, orgId: number): Promise<SigningDomain[]> {
  return db
    .select({ id: sendingDomains.id, domain: sendingDomains.domain, selector: sendingDomains.dkimSelector, sealedKey: sendingDomains.dkimPrivateKey })
    .from(sendingDomains)
    .where(and(eq(sendingDomains.orgId, orgId), isNotNull(sendingDomains.verifiedAt)));
}

/** An address's domain as sending_domains stores it: lower case, an international name in punycode; null when none. */
export function asciiDomainOf(address: string): string | null {
  const domain = domainOf(address.trim()).toLowerCase().replace(/\.$/, '');
  if (!domain) return null;
  if (/^[\x21-\x7e]+$/.test(domain)) return domain;
  try {
    return new URL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
}

/** The domain that signs mail from `domain`: itself if verified, else its nearest verified parent; null when none. */
export function signingDomainFor(domain: string, domains: readonly SigningDomain[]): SigningDomain | null {
  if (domains.length === 0) return null;
  const byName = new Map(domains.map((d) => [d.domain, d]));
  for (let name = domain; name; ) {
    const found = byName.get(name);
    if (found) return found;
    const dot = name.indexOf('.');
    name = dot < 0 ? '' : name.slice(dot + 1);
  }
  return null;
}

/** The signers of one organisation's mail for a send invocation: one DkimSigner per signing domain, made on first use. */
export class DkimSigners {
  private byDomain = new Map<string, Promise<DkimSigner | null>>();

  constructor(
    private env: Pick<Env, 'SECRETS_KEY'>,
    private domains: readonly SigningDomain[],
  ) {}

  /** Signs nothing: an integration whose provider signs, or an organisation without verified domains. */
  static readonly none = new DkimSigners({ SECRETS_KEY: '' }, []);

  /** The signer for mail from `address`, or null (unsigned). Never throws: a key that cannot be read is logged and mail goes unsigned. */
  signerFor(address: string): Promise<DkimSigner | null> {
    if (this.domains.length === 0) return Promise.resolve(null);
    const domain = asciiDomainOf(address);
    if (!domain) return Promise.resolve(null);
    let signer = this.byDomain.get(domain);
    if (!signer) {
      const signing = signingDomainFor(domain, this.domains);
      signer = signing ? this.signerOf(signing) : Promise.resolve(null);
      this.byDomain.set(domain, signer);
    }
    return signer;
  }

  private async signerOf(signing: SigningDomain): Promise<DkimSigner | null> {
    const cacheKey = `${signing.id}:${signing.selector}`;
    let cached = importedKeys.get(cacheKey);
    if (!cached || cached.sealed !== signing.sealedKey) {
      const key = decryptSecret(this.env.SECRETS_KEY, signing.sealedKey).then(importDkimKey);
      cached = { sealed: signing.sealedKey, key };
      importedKeys.set(cacheKey, cached);
      key.catch(() => importedKeys.forget((k) => k === cacheKey));
    }
    try {
      return { domain: signing.domain, selector: signing.selector, key: await cached.key };
    } catch (error) {
      // Sending unsigned is what happened before the domain was verified; failing every mail of it would be worse.
      console.error(`DKIM: the key of ${signing.domain} (domain ${signing.id}) cannot be used, sending unsigned: ${String(error)}`);
      return null;
    }
  }
}
