// The seeded organisation's sending domain for the local platform (scripts/seed.ts): a row for the seeded sender's
// domain with a fresh token and DKIM key, and the zone entries the local DoH stand-in (scripts/doh-stand-in.mjs)
// answers, so that "Check now" verifies it offline. Node runs this file directly from the seed script, hence the
// explicit .ts imports and WebCrypto used here rather than src/lib/dkim (whose imports Node cannot resolve); a
// worker test (test/worker/domain/domain-seed.test.ts) checks the checks accept exactly what this writes.
// @ts-expect-error TS5097: Node's type stripping needs the extension; bundlers and tsc resolve it all the same.
import { encryptSecret } from '../../lib/crypto/secret-box.ts';
// @ts-expect-error TS5097: as above.
import { nextSelector } from './selector.ts';

export interface ExampleDomain {
  sql: string;
  /** "<name> TXT" -> records (each as its strings of at most 255 bytes), as the stand-in's zone file takes them. */
  zone: Record<string, string[][]>;
}

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const split255 = (value: string) => value.match(/.{1,255}/g) ?? [''];

/** The SQL that (re)creates the organisation's domain with a new token and key, and the records that prove it. */
export async function exampleDomainSeed(options: { orgDomain: string; domain: string; secretsKey: string; now?: Date }): Promise<ExampleDomain> {
  const pair = (await crypto.subtle.generateKey(
    { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair;
  const publicKey = base64((await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer);
  const pkcs8 = base64((await crypto.subtle.exportKey('pkcs8', pair.privateKey)) as ArrayBuffer);
  const pem = `-----BEGIN PRIVATE KEY-----\n${(pkcs8.match(/.{1,64}/g) ?? []).join('\n')}\n-----END PRIVATE KEY-----\n`;
  const sealed: string = await encryptSecret(options.secretsKey, pem);
  const token = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const selector: string = nextSelector(options.now ?? new Date(), null);
  const domain = options.domain.toLowerCase();
  const org = `(SELECT id FROM organizations WHERE domain = ${text(options.orgDomain)})`;
  const now = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  const checks = JSON.stringify({ records: {}, verification_missing_since: null, lost_at: null });
  // A new key each seed, so the proof is looked at again (the boot's housekeeping run checks it at once).
  const sql = [
    'INSERT INTO sending_domains (org_id, domain, verification_token, dkim_selector, dkim_public_key, dkim_private_key, checks)',
    `  SELECT ${org}, ${text(domain)}, ${text(token)}, ${text(selector)}, ${text(publicKey)}, ${text(sealed)}, ${text(checks)} WHERE ${org} IS NOT NULL`,
    '  ON CONFLICT(org_id, domain) DO UPDATE SET verification_token = excluded.verification_token, verified_at = NULL,',
    '    dkim_selector = excluded.dkim_selector, dkim_public_key = excluded.dkim_public_key, dkim_private_key = excluded.dkim_private_key,',
    '    next_dkim_selector = NULL, next_dkim_public_key = NULL, next_dkim_private_key = NULL, checks = excluded.checks, checked_at = NULL,',
    `    broken_since = NULL, broken_notified_at = NULL, updated_at = ${now};`,
  ].join('\n');
  const zone: Record<string, string[][]> = {
    [`_relay-verification.${domain} TXT`]: [[`relay-verification=${token}`]],
    [`${selector}._domainkey.${domain} TXT`]: [split255(`v=DKIM1; k=rsa; p=${publicKey}`)],
    // The local relay (the mail catcher on loopback) is no known provider: any one SPF record passes the check.
    [`${domain} TXT`]: [['v=spf1 ip4:127.0.0.1 ~all']],
    [`_dmarc.${domain} TXT`]: [[`v=DMARC1; p=none; rua=mailto:dmarc@${domain}`]],
  };
  return { sql, zone };
}
