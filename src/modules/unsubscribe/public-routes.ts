import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validationFailed } from '../../lib/api-error';
import { validJson } from '../../lib/validate';
import { resubscribeBody, UNSUBSCRIBE_MESSAGES, unsubscribeBody, type UnsubscribePageData } from '../../shared/contracts/unsubscribe';
import { limitPublicRequest, readLink, type LinkTarget } from './link';
import { announceUnsubscribes, categoriesOf, messageContext, resubscribe, unsubscribe, unsubscribedFrom } from './store';

// The public unsubscribe API behind the /unsubscribe page: no sign-in, rate-limited, and every change is to the
// organisation and contact that the signed link `m` names.

/** "e•••@example.test" / "•••••••0004": enough for recipients to know it is theirs, little for anyone else. */
export function maskAddress(address: string): string {
  const at = address.indexOf('@');
  if (at > 0) return `${address[0]}•••${address.slice(at)}`;
  return `${'•'.repeat(Math.max(0, address.length - 4))}${address.slice(-4)}`;
}

async function pageData(c: { var: AppEnv['Variables'] }, link: LinkTarget): Promise<UnsubscribePageData> {
  const db = c.var.db;
  const [categories, left, context, address] = await Promise.all([
    categoriesOf(db, link.orgId),
    unsubscribedFrom(db, link),
    messageContext(db, link, link.messageId),
    db.get<{ value: string } | undefined>(sql`SELECT value FROM contact_addresses WHERE org_id = ${link.orgId} AND contact_id = ${link.contactId}
      ORDER BY CASE type WHEN 'email' THEN 0 ELSE 1 END, position, id LIMIT 1`),
  ]);
  const category = categories.find((s) => s.id === context.subscriptionId) ?? null;
  return {
    organization: { name: link.orgName },
    recipient: address ? maskAddress(address.value) : null,
    category,
    categories: categories.map((s) => ({ ...s, subscribed: !left.has(s.id) })),
  };
}

async function requireCategory(c: { var: AppEnv['Variables'] }, orgId: number, id: number): Promise<void> {
  const found = (await categoriesOf(c.var.db, orgId)).some((s) => s.id === id);
  if (!found) throw validationFailed({ subscription_id: [UNSUBSCRIBE_MESSAGES.unknownCategory] });
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
    await requireCategory(c, link.orgId, input.subscription_id);
    const change = await unsubscribe(c.var.db, link, {
      subscriptionId: input.subscription_id,
      messageId: link.messageId,
      reason: input.reason ?? null,
      comment: input.comment || null,
      source: 'page',
    });
    c.executionCtx.waitUntil(announceUnsubscribes(c.env, c.var.db, link.orgId, [change]));
    return c.json({ data: await pageData(c, link) });
  })
  .post('/resubscribe', validJson(resubscribeBody), async (c) => {
    await limitPublicRequest(c);
    const input = c.req.valid('json');
    const link = await readLink(c, input.m);
    await requireCategory(c, link.orgId, input.subscription_id);
    const change = await resubscribe(c.var.db, link, input.subscription_id);
    c.executionCtx.waitUntil(announceUnsubscribes(c.env, c.var.db, link.orgId, [change]));
    return c.json({ data: await pageData(c, link) });
  });
