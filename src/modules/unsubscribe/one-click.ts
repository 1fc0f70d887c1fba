import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError } from '../../lib/api-error';
import { limitPublicRequest, readLink } from './link';
import { recountUnsubscribes, categoriesOf, unsubscribe } from './store';
import { announceAfter } from '../event/announce';

// RFC 8058 one-click: mail providers POST `List-Unsubscribe=One-Click` (multipart or form-urlencoded) to the
// List-Unsubscribe URL, /unsubscribe?m=<signed link>, with no cookies or authorization. It unsubscribes at once
// and answers 200 without a redirect. The category is the one of the message's broadcast; a message without one
// leaves every category of the organisation (the recipient asked for no more mail). A GET of the same URL is
// the page, which changes nothing until the recipient confirms: link scanners follow GETs.

const DONE = 'You are unsubscribed.\n';

export const oneClickRoutes = new Hono<AppEnv>().post('/', async (c) => {
  const link = await readLink(c, c.req.query('m'));
  await limitPublicRequest(c, `contact:${link.orgId}:${link.contactId}`);
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch {
    throw new ApiError(400, 'bad_request', 'Expected a form body with List-Unsubscribe=One-Click');
  }
  if (body['List-Unsubscribe'] !== 'One-Click') throw new ApiError(400, 'bad_request', 'Expected a form body with List-Unsubscribe=One-Click');
  const targets = link.subscriptionId ? [link.subscriptionId] : (await categoriesOf(c.var.db, link.orgId)).map((s) => s.id);
  const changes = [];
  for (const id of targets) changes.push(await unsubscribe(c.var.db, link, { subscriptionId: id, reason: null, comment: null, source: 'one_click' }));
  await recountUnsubscribes(c.env, c.var.db, link.orgId, changes);
  if (changes.some((change) => change?.changed)) announceAfter(c, link.orgId);
  return c.text(DONE, 200, { 'cache-control': 'no-store' });
});
