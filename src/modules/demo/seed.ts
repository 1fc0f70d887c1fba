import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  contactAddresses,
  contactAttributes,
  contacts,
  contactTags,
  fieldOptions,
  fields,
  organizations,
  subscriptions,
  tags,
  templates,
  users,
} from '../../db/schema';
import { hashPassword } from '../../lib/password';
import { rawBatch } from '../crud/raw-batch';
import { DEMO_LOGIN, DEMO_ORG_NAME, DEMO_PASSWORD, DEMO_USER_NAME } from './demo-info';

// The shared demo's content: the kind of audience a new customer builds in their first hour (tags, custom
// fields, contacts, a subscription, an email and a text template). No integrations or senders: a shared demo
// must never reach a real mail server or SMS provider.

const TAGS = ['Customers', 'Newsletter', 'VIP', 'Prospects'];
const SUBSCRIPTIONS = ['Product news', 'Weekly digest'];
const PLANS = ['Free', 'Pro', 'Enterprise'];
const CITIES = ['Lisbon', 'Berlin', 'Bucharest', 'Madrid', 'Lyon', 'Shanghai', 'Moscow', 'Toronto'];
const PEOPLE = [
  'Alice Martin',
  'Bruno Costa',
  'Chloé Dubois',
  'Dmitri Volkov',
  'Elena Popescu',
  'Felix Wagner',
  'Grace Chen',
  'Hugo Fernández',
  'Ines Moreau',
  'Jonas Becker',
  'Kira Ivanova',
  'Luca Rossi',
  'Maria Silva',
  'Noah Schmidt',
  'Olivia Brown',
  'Pablo García',
  'Qing Li',
  'Rosa Ionescu',
  'Samuel Lefèvre',
  'Tanya Sokolova',
];

const WELCOME_HTML = `<h1>Welcome, {{ contact.name }}!</h1>
<p>Thank you for joining {{ organization.name }}. You are on the <strong>{{ contact.fields.plan }}</strong> plan.</p>
<p>Questions? Just reply to this email.</p>
<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>`;
const WELCOME_TEXT = `Welcome, {{ contact.name }}!

Thank you for joining {{ organization.name }}. You are on the {{ contact.fields.plan }} plan.

Unsubscribe: {{ unsubscribe_url }}`;
const REMINDER_TEXT = 'Hi {{ contact.name }}, a reminder from {{ organization.name }}: your appointment is tomorrow at 10:00.';

/** An email address on a reserved domain (RFC 2606), so nothing could ever be delivered to it. */
const emailOf = (name: string) =>
  `${name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.')}@example.com`;

/**
 * Creates an organisation with the demo's user and content under `domain` and returns its id. The caller picks
 * the domain: resets seed under a temporary one and rename it to `demo` in one step (see reset.ts).
 */
export async function seedDemoOrganization(db: Database, domain: string): Promise<number> {
  const [org] = await db.insert(organizations).values({ name: DEMO_ORG_NAME, domain }).returning({ id: organizations.id });
  const orgId = org.id;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const [, tagRows, fieldRows] = await db.batch([
    db.insert(users).values({ orgId, name: DEMO_USER_NAME, username: DEMO_LOGIN, email: DEMO_LOGIN, passwordHash }),
    db
      .insert(tags)
      .values(TAGS.map((name, i) => ({ orgId, name, priority: i + 1 })))
      .returning({ id: tags.id, name: tags.name }),
    db
      .insert(fields)
      .values([
        { orgId, name: 'City', alias: 'city', type: 'text', priority: 1 },
        { orgId, name: 'Plan', alias: 'plan', type: 'select', priority: 2 },
        { orgId, name: 'Orders', alias: 'orders', type: 'number', priority: 3 },
        { orgId, name: 'Opted in', alias: 'opted_in', type: 'boolean', priority: 4 },
      ])
      .returning({ id: fields.id, alias: fields.alias }),
    db.insert(subscriptions).values(SUBSCRIPTIONS.map((name, i) => ({ orgId, name, priority: i + 1 }))),
    db.insert(templates).values([
      {
        orgId,
        type: 'email',
        name: 'Welcome email',
        alias: 'welcome',
        subject: 'Welcome to {{ organization.name }}',
        body: WELCOME_HTML,
        bodyPlain: WELCOME_TEXT,
      },
      { orgId, type: 'text', name: 'Appointment reminder', alias: 'reminder', body: REMINDER_TEXT },
    ]),
  ]);
  const fieldId = Object.fromEntries(fieldRows.map((f) => [f.alias, f.id]));

  const [optionRows, contactRows] = await db.batch([
    db
      .insert(fieldOptions)
      .values(PLANS.map((value, position) => ({ orgId, fieldId: fieldId.plan, value, position })))
      .returning({ id: fieldOptions.id }),
    db
      .insert(contacts)
      .values(PEOPLE.map((name, i) => ({ orgId, name, note: i % 5 === 0 ? 'Met at the spring trade fair' : null })))
      .returning({ id: contacts.id }),
  ]);

  const addresses: { c: number; t: string; v: string; p: number }[] = [];
  const tagLinks: { c: number; t: number }[] = [];
  const attributes: { c: number; f: number; text?: string; num?: number; opt?: number }[] = [];
  contactRows.forEach(({ id }, i) => {
    addresses.push({ c: id, t: 'email', v: emailOf(PEOPLE[i]), p: 0 });
    if (i % 3 === 0) addresses.push({ c: id, t: 'phone', v: `+1555010${String(i).padStart(4, '0')}`, p: 1 });
    tagLinks.push({ c: id, t: tagRows[i % 2].id });
    if (i % 4 === 0) tagLinks.push({ c: id, t: tagRows[2].id });
    if (i % 7 === 3) tagLinks.push({ c: id, t: tagRows[3].id });
    attributes.push({ c: id, f: fieldId.city, text: CITIES[i % CITIES.length] });
    attributes.push({ c: id, f: fieldId.plan, opt: optionRows[i % optionRows.length].id });
    attributes.push({ c: id, f: fieldId.orders, num: (i * 7) % 23 });
    attributes.push({ c: id, f: fieldId.opted_in, num: i % 2 === 0 ? 1 : 0 });
  });

  // Child rows from one JSON parameter each: no statement comes near D1's 100 bound parameters.
  await rawBatch(db, [
    db.run(sql`INSERT INTO ${contactAddresses} (org_id, contact_id, type, value, position)
      SELECT ${orgId}, json_extract(j.value, '$.c'), json_extract(j.value, '$.t'), json_extract(j.value, '$.v'), json_extract(j.value, '$.p')
      FROM json_each(${JSON.stringify(addresses)}) j`),
    db.run(sql`INSERT INTO ${contactTags} (org_id, contact_id, tag_id)
      SELECT ${orgId}, json_extract(j.value, '$.c'), json_extract(j.value, '$.t') FROM json_each(${JSON.stringify(tagLinks)}) j`),
    db.run(sql`INSERT INTO ${contactAttributes} (org_id, contact_id, field_id, value_text, value_number, option_id)
      SELECT ${orgId}, json_extract(j.value, '$.c'), json_extract(j.value, '$.f'), json_extract(j.value, '$.text'),
             json_extract(j.value, '$.num'), json_extract(j.value, '$.opt')
      FROM json_each(${JSON.stringify(attributes)}) j`),
  ]);
  return orgId;
}
