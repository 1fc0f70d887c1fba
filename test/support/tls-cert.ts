// Certificates for the TLS tests, made fresh for each run: a test CA, a server certificate it signs for
// 127.0.0.1/localhost, and a self-signed certificate nobody trusts (for the "TLS failure" cases).
//
// workerd verifies TLS for cloudflare:sockets against its own trust store. Miniflare adds the certificates in the
// file named by NODE_EXTRA_CA_CERTS to that store when its module loads, so the transport test config writes the
// CA and sets the variable BEFORE it imports the vitest plugin (which imports miniflare).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

export interface TestTls {
  caCert: string;
  /** Signed by the test CA, for 127.0.0.1 and localhost: trusted once the CA is. */
  trusted: { key: string; cert: string };
  /** Self-signed, not in any trust store. */
  untrusted: { key: string; cert: string };
}

const serverNames = {
  name: 'subjectAltName' as const,
  altNames: [
    { type: 2 as const, value: 'localhost' },
    { type: 7 as const, ip: '127.0.0.1' },
  ],
};

/** Creates the CA and both server certificates and writes them (PEM + JSON) into `dir`. */
export async function createTestTls(dir: string): Promise<TestTls> {
  const notAfterDate = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  const ca = await generate([{ name: 'commonName', value: 'Relay transport tests CA' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const trusted = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: 'basicConstraints', cA: false }, serverNames, { name: 'extKeyUsage', serverAuth: true }],
  });
  const untrusted = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    extensions: [{ name: 'basicConstraints', cA: false }, serverNames, { name: 'extKeyUsage', serverAuth: true }],
  });
  const tls: TestTls = {
    caCert: ca.cert,
    trusted: { key: trusted.private, cert: trusted.cert },
    untrusted: { key: untrusted.private, cert: untrusted.cert },
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'tls.json'), JSON.stringify(tls));
  return tls;
}

/**
 * Writes the CA bundle workerd should trust (the test CA plus whatever NODE_EXTRA_CA_CERTS already named) and
 * points NODE_EXTRA_CA_CERTS at it.
 */
export function trustTestCa(dir: string, tls: TestTls): string {
  const previous = process.env.NODE_EXTRA_CA_CERTS;
  const extra = previous && existsSync(previous) ? readFileSync(previous, 'utf8') : '';
  const bundle = path.join(dir, 'ca-bundle.pem');
  writeFileSync(bundle, `${extra.trim()}\n${tls.caCert}`.trim() + '\n');
  process.env.NODE_EXTRA_CA_CERTS = bundle;
  return bundle;
}

/** Reads what createTestTls wrote. */
export function readTestTls(dir: string): TestTls {
  return JSON.parse(readFileSync(path.join(dir, 'tls.json'), 'utf8')) as TestTls;
}
