// DKIM in the bench worker (bench:broadcast, issue 37): makes the bench sender's domain key in workerd, sealed with
// the platform's SECRETS_KEY as the Domain module stores it, and repeats a signature or a body hash n times so the
// bench can time them from outside (Date.now() inside a worker only moves at I/O: the caller subtracts a run of 0).
import { encryptSecret } from '../../../src/lib/crypto/secret-box';
import { dkimBodyHash, dkimSignatureHeader, type DkimSigner } from '../../../src/lib/dkim/sign';
import { generateDkimKeyPair, importDkimKey } from '../../../src/lib/dkim/keys';
import { buildEmail } from '../../../src/lib/mime/build';
import { newsletterHtml } from '../broadcast/newsletter.mjs';

export interface DkimKeyRequest {
  /** The platform's SECRETS_KEY (its key ring), to seal the private key with. */
  secretsKey: string;
}

export interface DkimTimeRequest {
  op: 'sign' | 'hash-letter' | 'hash-newsletter';
  n: number;
}

/** A new key: the sealed private key for sending_domains and the public key (p=). */
export async function dkimKey({ secretsKey }: DkimKeyRequest) {
  const pair = await generateDkimKeyPair();
  return { sealed: await encryptSecret(secretsKey, pair.privateKeyPem), publicKey: pair.publicKeyBase64 };
}

let signer: Promise<DkimSigner> | null = null;
const messages = new Map<string, { headers: string; body: string }>();

/** A built message as the platform sends it (List-Unsubscribe and Feedback-ID included): the letter or the newsletter. */
function built(html: string, key: string): { headers: string; body: string } {
  const known = messages.get(key);
  if (known) return known;
  const raw = buildEmail({
    messageId: 'relay-1@bench.relay.test',
    from: { address: 'news@bench.relay.test', name: 'Bench News' },
    to: 'someone@example.test',
    subject: 'News for Ada',
    body: html,
    html: true,
    headers: {
      'List-Unsubscribe': '<https://acme.localhost/u/abc>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Feedback-ID': 'b1:1:broadcast:relay',
    },
  });
  const end = raw.indexOf('\r\n\r\n');
  const message = { headers: raw.slice(0, end + 2), body: raw.slice(end + 4) };
  messages.set(key, message);
  return message;
}

/** Does `op` n times: a whole DKIM-Signature of the letter (its body hash and the RSA signature), or a body hash. */
export async function dkimTime({ op, n }: DkimTimeRequest, letterHtml: string) {
  signer ??= generateDkimKeyPair().then(async (pair) => ({ domain: 'bench.relay.test', selector: 'relay1', key: await importDkimKey(pair.privateKeyPkcs8) }));
  const key = await signer;
  const letter = built(letterHtml, 'letter');
  const newsletter = built(newsletterHtml(), 'newsletter');
  for (let i = 0; i < n; i++) {
    if (op === 'sign') await dkimSignatureHeader(key, letter);
    else await dkimBodyHash((op === 'hash-letter' ? letter : newsletter).body);
  }
  return { done: n, bytes: (op === 'hash-newsletter' ? newsletter : letter).body.length };
}
