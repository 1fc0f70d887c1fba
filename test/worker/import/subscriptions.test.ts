import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { IMPORT_MESSAGES } from '../../../src/shared/contracts/import';
import { importCsv, newOrg, startImport, upload } from './support';

// An import's subscription_ids (issue 39): every imported contact, created or updated, joins them as a confirmed member
// with source 'import', a pending one is confirmed, and one who unsubscribed stays unsubscribed (as listmonk's import
// does: an import never resubscribes anyone). Another organisation's subscription is refused.

const mapping = [
  { column: 0, target: 'name' },
  { column: 1, target: 'address', address_type: 'email' },
] as const;
const one = <T>(query: string, ...values: unknown[]) =>
  env.DB.prepare(query)
    .bind(...values)
    .first<T>();
const subscriptionOf = async (orgId: number, name: string) =>
  (await one<{ id: number }>('INSERT INTO subscriptions (org_id, name, priority) VALUES (?, ?, 1) RETURNING id', orgId, name))!.id;
const contactOf = async (orgId: number, email: string) =>
  (await one<{ contact_id: number }>('SELECT contact_id FROM contact_addresses WHERE org_id = ? AND value = ?', orgId, email))!.contact_id;
const memberOf = (subscriptionId: number, contactId: number) =>
  one('SELECT status, source FROM subscription_members WHERE subscription_id = ? AND contact_id = ?', subscriptionId, contactId);

describe('importing into subscriptions', () => {
  it('joins created and updated contacts as confirmed (source import), confirms the pending, keeps the unsubscribed unsubscribed', async () => {
    const org = await newOrg();
    const news = await subscriptionOf(org.orgId, 'News');
    await importCsv(org, 'name,email\nAnn,ann@x.io\nPat,pat@x.io\nCat,cat@x.io\n', { mapping: [...mapping] });
    const [ann, pat, cat] = [await contactOf(org.orgId, 'ann@x.io'), await contactOf(org.orgId, 'pat@x.io'), await contactOf(org.orgId, 'cat@x.io')];
    // Ann left News (the unsubscribes row, mirrored by the trigger); Pat signed up through a form and has not confirmed.
    await env.DB.prepare("INSERT INTO unsubscribes (org_id, contact_id, subscription_id, source) VALUES (?, ?, ?, 'page')").bind(org.orgId, ann, news).run();
    await env.DB.prepare("UPDATE contacts SET membership = 'explicit' WHERE id = ?").bind(pat).run();
    await env.DB.prepare("INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source) VALUES (?, ?, ?, 'pending', 'form')")
      .bind(org.orgId, news, pat)
      .run();

    const done = await importCsv(org, 'name,email\nAnn,ann@x.io\nPat,pat@x.io\nCat,cat@x.io\nDan,dan@x.io\n', {
      mapping: [...mapping],
      subscription_ids: [news, news],
    });
    expect(done).toMatchObject({ status: 'success', created_count: 1, updated_count: 3, subscription_ids: [news] });
    const dan = await contactOf(org.orgId, 'dan@x.io');
    expect(await memberOf(news, ann)).toEqual({ status: 'unsubscribed', source: 'unsubscribe' });
    expect(await memberOf(news, pat)).toEqual({ status: 'confirmed', source: 'import' });
    expect(await memberOf(news, cat)).toEqual({ status: 'confirmed', source: 'import' });
    expect(await memberOf(news, dan)).toEqual({ status: 'confirmed', source: 'import' });
    expect(await one('SELECT count(*) AS n FROM unsubscribes WHERE contact_id = ?', ann)).toEqual({ n: 1 });
  });

  it("refuses another organisation's subscription, or one that does not exist, and starts nothing", async () => {
    const org = await newOrg();
    const other = await newOrg();
    const theirs = await subscriptionOf(other.orgId, 'Theirs');
    for (const subscription_ids of [[theirs], [987654]]) {
      const file_key = await upload(org, 'name,email\nAnn,a@x.io\n');
      const res = await startImport(org, { file_key, file_name: 'c.csv', mapping: [...mapping], subscription_ids });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields.subscription_ids).toEqual([
        IMPORT_MESSAGES.unknownSubscriptions,
      ]);
    }
    expect(await one('SELECT count(*) AS n FROM imports WHERE org_id = ?', org.orgId)).toEqual({ n: 0 });
  });
});
