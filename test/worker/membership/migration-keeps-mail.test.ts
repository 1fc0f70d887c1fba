// "The membership migration: nobody gains or loses mail": on the seeded example organisation (with a second
// subscription and unsubscribes, mirrored into member rows by migration 0030's triggers), the recipients by the new
// rule equal, for each subscription and for tag-only, an independent query of the old rule: every contact of the
// organisation except those with an unsubscribes row in S.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { exampleAudienceSql } from '../../../src/modules/contact/seed-example';
import { recipientPage, type RecipientRule } from '../../../src/modules/broadcast/recipients';
import { insertContact, newOrg } from '../channel-helpers';

async function runSql(sql: string) {
  for (const statement of sql
    .split(/;\s*\n/)
    .map((s) => s.trim().replace(/;$/, ''))
    .filter(Boolean))
    await env.DB.prepare(statement).run();
}

describe('the membership migration', () => {
  it('nobody gains or loses mail: new-rule recipients equal the old rule for each subscription and tag-only', async () => {
    const o = await newOrg('keepmail');
    await runSql(exampleAudienceSql(o.org));
    const second = (await o.api('POST', '/subscription', { name: 'Offers' })).body.data;
    for (let i = 0; i < 12; i++) await insertContact(o.orgId, `Extra ${i}`, [{ type: 'email', value: `extra${i}@example.com` }]);
    const subs = (await env.DB.prepare('SELECT id FROM subscriptions WHERE org_id = ? ORDER BY id').bind(o.orgId).all<{ id: number }>()).results;
    expect(subs.length).toBe(2);
    expect(subs.map((s) => s.id)).toContain(second.id);
    const contactIds = (await env.DB.prepare('SELECT id FROM contacts WHERE org_id = ? ORDER BY id').bind(o.orgId).all<{ id: number }>()).results.map(
      (r) => r.id,
    );
    expect(contactIds.length).toBeGreaterThan(12);
    // Every third contact left the first subscription, every fourth the second.
    for (const [i, id] of contactIds.entries()) {
      if (i % 3 === 0)
        await env.DB.prepare('INSERT INTO unsubscribes (org_id, contact_id, subscription_id) VALUES (?, ?, ?)').bind(o.orgId, id, subs[0].id).run();
      if (i % 4 === 0)
        await env.DB.prepare('INSERT INTO unsubscribes (org_id, contact_id, subscription_id) VALUES (?, ?, ?)').bind(o.orgId, id, subs[1].id).run();
    }
    const members = await env.DB.prepare('SELECT count(*) AS n FROM subscription_members WHERE org_id = ?').bind(o.orgId).first<{ n: number }>();
    const unsubs = await env.DB.prepare('SELECT count(*) AS n FROM unsubscribes WHERE org_id = ?').bind(o.orgId).first<{ n: number }>();
    expect(members!.n).toBe(unsubs!.n);

    const sent = async (subscriptionId: number | null) => {
      const rule: RecipientRule = { orgId: o.orgId, type: 'email', recipients: { filter: {} }, subscriptionId, skipUnsubscribed: true };
      const rows = await createDb(env.DB).all<{ id: number; reason: string | null }>(recipientPage(rule, 0, null, 10_000));
      return rows.filter((r) => r.reason === null).map((r) => r.id);
    };
    // The old rule, written independently: contacts with an address, minus the unsubscribed ones in S.
    const oldRule = async (subscriptionId: number | null) =>
      (
        await env.DB.prepare(
          `SELECT c.id FROM contacts c WHERE c.org_id = ?1
             AND EXISTS (SELECT 1 FROM contact_addresses a WHERE a.contact_id = c.id AND a.type = 'email')
             AND (?2 IS NULL OR NOT EXISTS (SELECT 1 FROM unsubscribes u WHERE u.contact_id = c.id AND u.subscription_id = ?2))
           ORDER BY c.id`,
        )
          .bind(o.orgId, subscriptionId)
          .all<{ id: number }>()
      ).results.map((r) => r.id);
    for (const s of [...subs.map((x) => x.id), null]) {
      const expected = await oldRule(s);
      expect(expected.length).toBeGreaterThan(0);
      expect(await sent(s)).toEqual(expected);
    }
  });
});
