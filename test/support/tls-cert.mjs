// Certificates for the TLS tests, made fresh for each run: a test CA, a server certificate it signs for
// 127.0.0.1/localhost, and a self-signed certificate nobody trusts (for the "TLS failure" cases).
//
// workerd verifies TLS for cloudflare:sockets against its own trust store. Miniflare adds the certificates in the
// file named by NODE_EXTRA_CA_CERTS to that store when its module loads, so the transport test config writes the
// CA and sets the variable BEFORE it imports the vitest plugin (which imports miniflare).
// (Plain .mjs so the vitest config can import it with its extension.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

const serverNames = {
  name: 'subjectAltName',
  altNames: [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
  ],
};

/** Creates the CA and both server certificates and writes them (JSON) into `dir`. */
export async function createTestTls(dir) {
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
  const leaf = (signer) =>
    generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate,
      ...(signer ? { ca: signer } : {}),
      extensions: [{ name: 'basicConstraints', cA: false }, serverNames, { name: 'extKeyUsage', serverAuth: true }],
    });
  const trusted = await leaf({ key: ca.private, cert: ca.cert });
  const untrusted = await leaf(null);
  const tls = {
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
export function trustTestCa(dir, tls) {
  const previous = process.env.NODE_EXTRA_CA_CERTS;
  const extra = previous && existsSync(previous) ? readFileSync(previous, 'utf8') : '';
  const bundle = path.join(dir, 'ca-bundle.pem');
  writeFileSync(bundle, `${`${extra.trim()}\n${tls.caCert}`.trim()}\n`);
  process.env.NODE_EXTRA_CA_CERTS = bundle;
  return bundle;
}

/** Reads what createTestTls wrote. */
export function readTestTls(dir) {
  return JSON.parse(readFileSync(path.join(dir, 'tls.json'), 'utf8'));
}
