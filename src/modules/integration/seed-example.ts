// Example channels for the local platform: an smtp integration to the local mail catcher and a twilio
// integration to the local SMS catcher, with one sender each, for the seeded organisation. Returns SQL for
// `wrangler d1 execute`, idempotent (run it on every start: it refreshes the encrypted secrets, so a new
// SECRETS_KEY in .dev.vars never leaves undecryptable rows). Node runs this file directly from the seed
// script, hence the explicit .ts import below.
// @ts-expect-error TS5097: Node's type stripping needs the extension; bundlers and tsc resolve it all the same.
import { encryptSecret } from '../../lib/crypto/secret-box.ts';

export interface ExampleChannelsOptions {
  /** The organisation: its id, or its domain (the subdomain label, e.g. 'acme'). */
  org: { id: number } | { domain: string };
  /** The SECRETS_KEY the worker runs with (the same value as in .dev.vars). */
  secretsKey: string;
  /** Local SMTP catcher port (default 1025): 127.0.0.1, no TLS. */
  smtpPort?: number;
  /** Local SMS catcher port (default 8026): the worker must run with TWILIO_API_BASE = `twilioApiBase`. */
  smsPort?: number;
}

export interface ExampleChannels {
  sql: string;
  /** The worker var the twilio integration needs locally. */
  twilioApiBase: string;
}

export const EXAMPLE_CHANNELS = {
  smtpName: 'Local SMTP (mail catcher)',
  twilioName: 'Local Twilio (SMS catcher)',
  twilioSid: 'AC0123456789abcdef0123456789abcdef',
  twilioToken: 'local',
  emailSender: 'hello@acme.test',
  emailSenderName: 'Acme',
  phoneSender: '+15005550006',
} as const;

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The SQL that creates (or refreshes) the example integrations and senders of one organisation. */
export async function exampleChannelsSql(options: ExampleChannelsOptions): Promise<ExampleChannels> {
  const e = EXAMPLE_CHANNELS;
  const smtpPort = options.smtpPort ?? 1025;
  const smsPort = options.smsPort ?? 8026;
  const org = 'id' in options.org ? String(Math.trunc(options.org.id)) : `(SELECT id FROM organizations WHERE domain = ${text(options.org.domain)})`;
  const smtpDetails = JSON.stringify({ server: '127.0.0.1', port: smtpPort, ssl: false, tls: false, domain: 'acme.test', return_path: null, user: 'local' });
  const twilioDetails = JSON.stringify({ sid: e.twilioSid });
  const smtpSecret = await encryptSecret(options.secretsKey, JSON.stringify({ password: 'local' }));
  const twilioSecret = await encryptSecret(options.secretsKey, JSON.stringify({ token: e.twilioToken }));
  const now = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

  const integration = (name: string, type: string, details: string, secret: string, priority: number) => [
    `UPDATE integrations SET details = ${text(details)}, secret = ${text(secret)}, status = 'active', updated_at = ${now}`,
    `  WHERE org_id = ${org} AND name = ${text(name)} AND type = ${text(type)};`,
    `INSERT INTO integrations (org_id, name, type, status, details, secret, should_merge, priority)`,
    `  SELECT ${org}, ${text(name)}, ${text(type)}, 'active', ${text(details)}, ${text(secret)}, 1, ${priority}`,
    `  WHERE ${org} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM integrations WHERE org_id = ${org} AND name = ${text(name)} AND type = ${text(type)});`,
  ];
  const sender = (integrationName: string, type: string, value: string, name: string | null, priority: number) => [
    `INSERT INTO senders (org_id, integration_id, type, value, name, priority)`,
    `  SELECT org_id, id, ${text(type)}, ${text(value)}, ${name === null ? 'NULL' : text(name)}, ${priority}`,
    `  FROM integrations WHERE org_id = ${org} AND name = ${text(integrationName)} ORDER BY id LIMIT 1`,
    `  ON CONFLICT(org_id, integration_id, type, value) DO NOTHING;`,
  ];
  const sql = [
    ...integration(e.smtpName, 'smtp', smtpDetails, smtpSecret, 1),
    ...integration(e.twilioName, 'twilio', twilioDetails, twilioSecret, 2),
    ...sender(e.smtpName, 'email', e.emailSender, e.emailSenderName, 1),
    ...sender(e.twilioName, 'phone', e.phoneSender, null, 2),
  ].join('\n');
  return { sql, twilioApiBase: `http://127.0.0.1:${smsPort}` };
}
