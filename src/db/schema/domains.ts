import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { organizations, timestamps } from './core';

// Sending domains (issue 37, src/modules/domain): a domain an organisation sends from, proved by a TXT record, with
// the DKIM key Relay signs its mail with and the last check of the records it should publish.

export const sendingDomains = sqliteTable(
  'sending_domains',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Lower case, ASCII (an international name in its punycode form). */
    domain: text('domain').notNull(),
    /** The value the verification TXT record must hold (src/lib/dns/check-verification.ts). */
    verificationToken: text('verification_token').notNull(),
    /** When the organisation proved control; null until then, and again once another organisation took it over. */
    verifiedAt: text('verified_at'),
    /** The DKIM selector Relay signs with, its public key (base64 SPKI, the record's p=) and private key (PKCS#8, sealed with SECRETS_KEY). */
    dkimSelector: text('dkim_selector').notNull(),
    dkimPublicKey: text('dkim_public_key').notNull(),
    dkimPrivateKey: text('dkim_private_key').notNull(),
    /** A rotation under way: the new selector and key, used once their record is seen (the old kept until then). */
    nextDkimSelector: text('next_dkim_selector'),
    nextDkimPublicKey: text('next_dkim_public_key'),
    nextDkimPrivateKey: text('next_dkim_private_key'),
    /** The last check of every record, JSON (src/shared/contracts/domain.ts DomainChecks); null before the first. */
    checks: text('checks', { mode: 'json' }),
    checkedAt: text('checked_at'),
    /** Since when a verified domain's records are broken (a check found one that was ok missing or wrong); null while fine. */
    brokenSince: text('broken_since'),
    /** When the organisation's users were told of the break (once per break). */
    brokenNotifiedAt: text('broken_notified_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('sending_domains_org_domain').on(t.orgId, t.domain),
    // A domain belongs to one organisation at a time: only one verified row per name.
    uniqueIndex('sending_domains_verified_domain').on(t.domain).where(sql`verified_at IS NOT NULL`),
    index('sending_domains_checked').on(t.checkedAt),
  ],
);
