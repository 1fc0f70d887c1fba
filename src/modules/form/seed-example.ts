// The seeded organisation's sign-up form for the local platform (scripts/seed.ts): "Newsletter sign-up", enabled,
// offering every subscription the organisation has, asking the email and the name, double opt-in, confirmation
// mails from its example email sender, embeddable on the local platform's own origin (PUBLIC_URL in wrangler.toml).
// Idempotent: a form of that name already there is left as a person changed it. Node runs this file directly from
// the seed script, so it imports nothing relative.

export const EXAMPLE_FORM = {
  name: 'Newsletter sign-up',
  fields: [
    { kind: 'email', required: true },
    { kind: 'name', required: false },
  ],
  allowedOrigins: ['http://localhost:8787'],
} as const;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new public key like the API's (22 base62 characters); a stand-in for randomBase62, which Node cannot load here. */
export function newExamplePublicKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(22)), (b) => BASE62[b % 62]).join('');
}

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The SQL that creates the organisation's example form (after its subscriptions and senders were seeded). */
export function exampleFormSql(options: { orgDomain: string; emailSender: string }): string {
  const org = `(SELECT id FROM organizations WHERE domain = ${text(options.orgDomain)})`;
  const subscriptionIds = `(SELECT json_group_array(id) FROM (SELECT id FROM subscriptions WHERE org_id = ${org} ORDER BY priority, id))`;
  // No sender seeded (no SECRETS_KEY): null, the confirmation mail then goes from the organisation's default.
  const sender = `(SELECT id FROM senders WHERE org_id = ${org} AND type = 'email' AND value = ${text(options.emailSender)} LIMIT 1)`;
  const values = [
    org,
    text(newExamplePublicKey()),
    text(EXAMPLE_FORM.name),
    subscriptionIds,
    text(JSON.stringify(EXAMPLE_FORM.fields)),
    '1',
    text(JSON.stringify(EXAMPLE_FORM.allowedOrigins)),
    sender,
    '1',
  ].join(', ');
  return `INSERT INTO forms (org_id, public_key, name, subscription_ids, fields, double_opt_in, allowed_origins, sender_id, enabled) SELECT ${values} WHERE ${org} IS NOT NULL ON CONFLICT(org_id, name) DO NOTHING;`;
}
