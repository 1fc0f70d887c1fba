// The seeded organisation's webhook endpoint for the local platform (scripts/seed.ts): one endpoint on the local
// webhook catcher (scripts/webhook-catcher.mjs) taking every event, so a newcomer sees events arrive after the first
// broadcast. Its secret is sealed with SECRETS_KEY like every endpoint's; the seed also writes the plain secret
// where the catcher reads it (.local/webhooks.json) and hands it back here on the next start, so the secret stays
// the same across starts while a new SECRETS_KEY never leaves an undecryptable row. Node runs this file directly
// from the seed script, hence the explicit .ts import and nothing else relative.
// @ts-expect-error TS5097: Node's type stripping needs the extension; bundlers and tsc resolve it all the same.
import { encryptSecret } from '../../lib/crypto/secret-box.ts';

export const EXAMPLE_WEBHOOK = { path: '/relay', description: 'Local webhook catcher', eventTypes: ['*'] } as const;

/**
 * The endpoint's URL on the catcher. 127.0.0.1 rather than localhost: an IP literal in loopback needs no DNS
 * question (the address rules resolve names on every attempt, and the local resolver knows no "localhost").
 */
export const exampleWebhookUrl = (port: number) => `http://127.0.0.1:${port}${EXAMPLE_WEBHOOK.path}`;

/**
 * A new signing secret, 'whsec_' and base64 of 24 random bytes. A local stand-in for newEndpointSecret() of
 * src/modules/webhook/secrets.ts, which Node cannot load from the seed script (its imports have no extensions).
 */
export function newExampleSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`;
}

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;

export interface ExampleWebhookOptions {
  /** The organisation's domain (the subdomain label, e.g. 'acme'). */
  orgDomain: string;
  /** The SECRETS_KEY the worker runs with. */
  secretsKey: string;
  /** The webhook catcher's port. */
  port: number;
  /** The secret an earlier start wrote for this URL (kept); a new one without it. */
  secret?: string;
}

/**
 * The SQL (one statement a line, for `wrangler d1 execute` or D1's exec) that creates the organisation's endpoint on
 * the catcher, or re-seals the secret of the one there; with the URL and the plain secret for the catcher's file.
 * An endpoint already there keeps what a person changed on it (types, on/off): only its secret is written again.
 */
export async function exampleWebhookSql(options: ExampleWebhookOptions): Promise<{ sql: string; url: string; secret: string }> {
  const url = exampleWebhookUrl(options.port);
  const secret = options.secret?.startsWith('whsec_') ? options.secret : newExampleSecret();
  const sealed = text(await encryptSecret(options.secretsKey, secret));
  const org = `(SELECT id FROM organizations WHERE domain = ${text(options.orgDomain)})`;
  const now = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  const sql = [
    `UPDATE webhook_endpoints SET secret = ${sealed}, previous_secret = NULL, previous_secret_until = NULL, updated_at = ${now} WHERE org_id = ${org} AND url = ${text(url)};`,
    `INSERT INTO webhook_endpoints (org_id, url, description, event_types, enabled, batch, secret) SELECT ${org}, ${text(url)}, ${text(EXAMPLE_WEBHOOK.description)}, ${text(JSON.stringify(EXAMPLE_WEBHOOK.eventTypes))}, 1, 0, ${sealed} WHERE ${org} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE org_id = ${org} AND url = ${text(url)});`,
  ].join('\n');
  return { sql, url, secret };
}
