import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validationFailed } from '../../lib/api-error';
import { validJson } from '../../lib/validate';
import { resubscribeBody, UNSUBSCRIBE_MESSAGES, unsubscribeBody, type UnsubscribePageData } from '../../shared/contracts/unsubscribe';
import { limitPublicRequest, readLink, type LinkTarget } from './link';
import { recountUnsubscribes, categoriesOf, resubscribe, standingsOf, unsubscribe } from './store';
import { announceAfter } from '../event/announce';

// The public unsubscribe API (the JSON twin of the /unsubscribe page, page/routes.ts): no sign-in, rate-limited, and every change is to the
// organisation and contact that the signed link `m` names.

/** "e•••@example.test" / "•••••••0004": enough for recipients to know it is theirs, little for anyone else. */
export function maskAddress(address: string): string {
  const at = address.indexOf('@');
  if (at > 0) return `${address[0]}•••${address.slice(at)}`;
  return `${'•'.repeat(Math.max(0, address.length - 4))}${address.slice(-4)}`;
}

type Categories = { id: number; name: string }[];

/** What the page shows; `categories` when the caller has read them already. */
export async function pageData(c: { var: AppEnv['Variables'] }, link: LinkTarget, categories?: Categories): Promise<UnsubscribePageData> {
  const db = c.var.db;
  const all = categories ?? (await categoriesOf(db, link.orgId));
  const [standings, address] = await Promise.all([
    standingsOf(
      db,
      link,
      all.map((s) => s.id),
    ),
    db.get<{ value: string } | undefined>(sql`SELECT value FROM contact_addresses WHERE org_id = ${link.orgId} AND contact_id = ${link.contactId}
      ORDER BY CASE type WHEN 'email' THEN 0 ELSE 1 END, position, id LIMIT 1`),
  ]);
  return {
    organization: { name: link.orgName },
    recipient: address ? maskAddress(address.value) : null,
    category: all.find((s) => s.id === link.subscriptionId) ?? null,
    categories: all.map((s) => ({ ...s, subscribed: standings.get(s.id) === 'subscribed', pending: standings.get(s.id) === 'pending' })),
  };
}

/** The organisation's categories, checked to hold `id` (422 otherwise). */
export async function categoriesWith(c: { var: AppEnv['Variables'] }, orgId: number, id: number): Promise<Categories> {
  const categories = await categoriesOf(c.var.db, orgId);
  if (!categories.some((s) => s.id === id)) throw validationFailed({ subscription_id: [UNSUBSCRIBE_MESSAGES.unknownCategory] });
  return categories;
}

export const unsubscribePublicRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    await limitPublicRequest(c);
    const link = await readLink(c, c.req.query('m'));
    return c.json({ data: await pageData(c, link) });
  })
  .post('/', validJson(unsubscribeBody), async (c) => {
    await limitPublicRequest(c);
    const input = c.req.valid('json');
    const link = await readLink(c, input.m);
    const categories = await categoriesWith(c, link.orgId, input.subscription_id);
    const change = await unsubscribe(c.var.db, link, {
      subscriptionId: input.subscription_id,
      reason: input.reason ?? null,
      comment: input.comment || null,
      source: 'page',
    });
    await recountUnsubscribes(c.env, c.var.db, link.orgId, [change]);
    if (change?.changed) announceAfter(c, link.orgId);
    return c.json({ data: await pageData(c, link, categories) });
  })
  .post('/resubscribe', validJson(resubscribeBody), async (c) => {
    await limitPublicRequest(c);
    const input = c.req.valid('json');
    const link = await readLink(c, input.m);
    const categories = await categoriesWith(c, link.orgId, input.subscription_id);
    const change = await resubscribe(c.var.db, link, input.subscription_id);
    await recountUnsubscribes(c.env, c.var.db, link.orgId, [change]);
    if (change?.changed) announceAfter(c, link.orgId);
    return c.json({ data: await pageData(c, link, categories) });
  });
