// The example audience of the local platform, so a new user can send a first broadcast within a minute of
// `npm start`: a subscription, a tag, a few tagged contacts whose email addresses land in the local mail
// catcher (it accepts any address) and whose phone numbers land in the SMS catcher, and an email and a text
// template to send them. SQL for
// `wrangler d1 execute`, idempotent: contacts are found again by their email address. Node runs this file
// directly from the seed script.

export const EXAMPLE_AUDIENCE = {
  subscription: 'Newsletter',
  tag: 'Early adopters',
  contacts: [
    { name: 'Emmy Noether', email: 'emmy@example.test', phone: '+15550100001' },
    { name: 'Alan Turing', email: 'alan@example.test', phone: '+15550100002' },
    { name: 'Katherine Johnson', email: 'katherine@example.test', phone: '+15550100003' },
    { name: 'Linus Pauling', email: 'linus@example.test', phone: '+15550100004' },
    { name: 'Marie Curie', email: 'marie@example.test', phone: '+15550100005' },
  ],
  templates: [
    {
      alias: 'example-welcome',
      type: 'email',
      name: 'Welcome (example)',
      // Placeholders carry fallbacks (`default:`), which a test message sent to no contact shows.
      subject: 'Welcome, {{ contact.name | default: "friend" }}',
      // A real web link, so the first broadcast shows a click going through the tracking redirect.
      body: '<h1>Hello {{ contact.name | default: "there" }}!</h1><p>Thanks for joining {{ organization.name }}.</p><p><a href="https://example.com/">See what is new</a></p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    },
    {
      alias: 'example-sms',
      type: 'text',
      name: 'Hello SMS (example)',
      subject: null,
      body: 'Hi {{ contact.name | default: "there" }}, news from {{ organization.name }}. Reply STOP to opt out.',
    },
  ],
} as const;

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The SQL that creates (or finds) the example subscription, tag, tagged contacts and templates of an organisation by domain. */
export function exampleAudienceSql(domain: string): string {
  const a = EXAMPLE_AUDIENCE;
  const org = `(SELECT id FROM organizations WHERE domain = ${text(domain)})`;
  const contactOf = (email: string) => `(SELECT contact_id FROM contact_addresses WHERE org_id = ${org} AND type = 'email' AND value = ${text(email)})`;
  const lines = [
    `INSERT INTO subscriptions (org_id, name, priority) SELECT ${org}, ${text(a.subscription)}, 1 WHERE ${org} IS NOT NULL ON CONFLICT(org_id, name) DO NOTHING;`,
    `INSERT INTO tags (org_id, name, priority) SELECT ${org}, ${text(a.tag)}, 1 WHERE ${org} IS NOT NULL ON CONFLICT(org_id, name) DO NOTHING;`,
  ];
  for (const t of a.templates) {
    lines.push(
      `INSERT INTO templates (org_id, type, name, alias, subject, body) SELECT ${org}, ${text(t.type)}, ${text(t.name)}, ${text(t.alias)}, ${t.subject === null ? 'NULL' : text(t.subject)}, ${text(t.body)}
         WHERE ${org} IS NOT NULL ON CONFLICT(org_id, alias) DO NOTHING;`,
    );
  }
  // A missing example contact is made again on the next seed, unless the organisation has erased anyone at the
  // person's request: the "do not re-add" list holds keyed digests that SQL cannot compute, so once it has a row
  // the seed cannot tell whether a missing example contact (or its phone) was erased, and adds neither
  // (src/modules/privacy/erased-list.ts).
  const mayAdd = `NOT EXISTS (SELECT 1 FROM erased_addresses WHERE org_id = ${org})`;
  for (const c of a.contacts) {
    lines.push(
      `INSERT INTO contacts (org_id, name) SELECT ${org}, ${text(c.name)} WHERE ${org} IS NOT NULL AND ${contactOf(c.email)} IS NULL AND ${mayAdd};`,
      // The contact just inserted is the organisation's newest one with that name and no address yet.
      `INSERT INTO contact_addresses (org_id, contact_id, type, value, position)
         SELECT ${org}, (SELECT max(id) FROM contacts WHERE org_id = ${org} AND name = ${text(c.name)}), 'email', ${text(c.email)}, 0
         WHERE ${contactOf(c.email)} IS NULL AND ${mayAdd};`,
      `INSERT INTO contact_addresses (org_id, contact_id, type, value, position)
         SELECT ${org}, ${contactOf(c.email)}, 'phone', ${text(c.phone)}, 1 WHERE ${contactOf(c.email)} IS NOT NULL AND ${mayAdd}
         ON CONFLICT(org_id, type, value) DO NOTHING;`,
      `INSERT INTO contact_tags (org_id, contact_id, tag_id)
         SELECT ${org}, ${contactOf(c.email)}, (SELECT id FROM tags WHERE org_id = ${org} AND name = ${text(a.tag)})
         WHERE ${contactOf(c.email)} IS NOT NULL ON CONFLICT DO NOTHING;`,
    );
  }
  return lines.join('\n');
}
