// The Node side of the DKIM tests (loaded by the transport tests' global setup): signatures verified by a maintained
// verifier, `mailauth`, not by our own code, and the fixture signed in Node for the Node/workerd comparison.
import { authenticate } from 'mailauth';
import { importDkimKey } from '../../src/lib/dkim/keys';
import { dkimSignatureHeader, splitMessage } from '../../src/lib/dkim/sign';
import { FIXTURE_MESSAGE, FIXTURE_PRIVATE_KEY, FIXTURE_SIGNER, FIXTURE_TIMESTAMP } from './dkim-fixture';
import type { DkimVerdict } from './transport-context';

/**
 * Verifies every DKIM-Signature of a message with mailauth's `authenticate`, in its strict mode (RFC 6376 as written:
 * a body hash mismatch is `fail`). DNS is answered from `records` only (name -> the TXT record's strings); any
 * other name does not exist, so SPF, DMARC and ARC find nothing and do not matter here.
 */
export async function verifyDkim(raw: string, records: Record<string, string[]>): Promise<DkimVerdict[]> {
  const resolver = async (name: string, type: string) => {
    const record = type === 'TXT' ? records[name.toLowerCase()] : undefined;
    if (record) return [record];
    throw Object.assign(new Error(`${name} ${type}: not found`), { code: 'ENOTFOUND' });
  };
  const result = await authenticate(raw, {
    resolver,
    strict: true,
    ip: '127.0.0.1',
    helo: 'mailer.relay.test',
    mta: 'mx.example.test',
    disableArc: true,
    disableBimi: true,
  });
  return result.dkim.results.map((row) => ({
    result: row.status.result,
    comment: row.status.comment ?? null,
    domain: row.signingDomain ?? null,
    selector: row.selector ?? null,
    signedHeaders: row.signingHeaders?.keys ?? null,
    info: row.info,
  }));
}

/** The fixture's DKIM-Signature as our signer makes it in Node. */
export async function nodeFixtureSignature(): Promise<string> {
  const key = await importDkimKey(FIXTURE_PRIVATE_KEY);
  return dkimSignatureHeader({ ...FIXTURE_SIGNER, key }, splitMessage(FIXTURE_MESSAGE), { timestamp: FIXTURE_TIMESTAMP });
}
