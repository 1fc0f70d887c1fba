import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppEnv } from '../../../context';
import { ApiError } from '../../../lib/api-error';
import { resubscribeBody, unsubscribeBody } from '../../../shared/contracts/unsubscribe';
import { limitPublicRequest, readLink, type LinkTarget } from '../link';
import { categoriesWith, pageData } from '../public-routes';
import { recountUnsubscribes, resubscribe, unsubscribe } from '../store';
import { failedPage, invalidLinkPage, unsubscribePage, type PageResult } from './render';
import { acceptedLanguage } from '../../../shared/languages';
import { pageTranslator } from './strings';
import { announceAfter } from '../../event/announce';

// The public unsubscribe page, rendered here as plain html (render.ts) so it works without JavaScript and loads none:
//   GET  /unsubscribe?m=<signed link>      the page (opening it changes nothing: link scanners follow GETs)
//   POST /unsubscribe/change               a form of the page: leave or join one category, then 303 back to the page
//                                          saying what happened (?done=, ?undone=, ?changed=), so a reload repeats nothing
// The RFC 8058 one-click POST to /unsubscribe?m= is one-click.ts. Every change goes to the organisation and contact
// the signed link names, through the same store as the JSON API (public-routes.ts); a forged link gets the
// broken-link page (404), bad input the page again with a message (422) and no change.

/** The page is personal and changes as the recipient acts: never cached. */
const NO_STORE = { 'cache-control': 'no-store' } as const;

const AFTER = ['done', 'undone', 'changed'] as const;
type After = (typeof AFTER)[number];

function languageOf(c: Context<AppEnv>) {
  const language = acceptedLanguage(c.req.header('accept-language'));
  return { language, tr: pageTranslator(language) };
}

/** The link the request carries, or the answer to give instead: the broken-link page, or "try again" when limited. */
async function linkOr(c: Context<AppEnv>, m: string | undefined): Promise<LinkTarget | Response> {
  const { language, tr } = languageOf(c);
  try {
    await limitPublicRequest(c);
    return await readLink(c, m);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'link_invalid') return c.html(invalidLinkPage(language, tr), 404, NO_STORE);
    if (error instanceof ApiError && error.code === 'rate_limited') return c.html(failedPage(language, tr), 429, { ...NO_STORE, ...error.headers });
    throw error;
  }
}

/** What the redirect after a change asks the page to say, when it is still true. */
function resultOf(query: Record<string, string>, categories: { id: number; name: string; subscribed: boolean }[]): PageResult {
  for (const kind of ['done', 'undone'] as const) {
    const id = Number(query[kind]);
    const category = categories.find((c) => c.id === id);
    if (category && category.subscribed === (kind === 'undone')) return { kind, id, name: category.name };
  }
  return query.changed ? { kind: 'changed' } : null;
}

/** The form's fields as the JSON API's bodies take them (numbers as numbers, empty as absent). */
function fieldsOf(form: Record<string, unknown>) {
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : undefined);
  const id = text('subscription_id');
  return {
    m: text('m') ?? '',
    action: text('action'),
    after: (AFTER as readonly string[]).includes(text('after') ?? '') ? (text('after') as After) : 'changed',
    subscription_id: id && /^\d{1,15}$/.test(id) ? Number(id) : id,
    reason: text('reason') || null,
    comment: text('comment')?.trim() || null,
  };
}

export const unsubscribePageRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const m = c.req.query('m');
    const link = await linkOr(c, m);
    if (link instanceof Response) return link;
    const { language, tr } = languageOf(c);
    const page = await pageData(c, link);
    return c.html(unsubscribePage({ language, tr, m: m ?? '', page, result: resultOf(c.req.query(), page.categories) }), 200, NO_STORE);
  })
  .post('/change', async (c) => {
    let form: Record<string, unknown> = {};
    try {
      form = await c.req.parseBody();
    } catch {
      // Not a form: read as empty, which is a broken link below.
    }
    const fields = fieldsOf(form);
    const link = await linkOr(c, fields.m);
    if (link instanceof Response) return link;
    const refuse = async () => {
      const { language, tr } = languageOf(c);
      const page = await pageData(c, link);
      return c.html(unsubscribePage({ language, tr, m: fields.m, page, result: null, failed: true }), 422, NO_STORE);
    };
    const leave = fields.action === 'leave' ? unsubscribeBody.safeParse(fields) : null;
    const join = fields.action === 'join' ? resubscribeBody.safeParse(fields) : null;
    const subscriptionId = leave?.data?.subscription_id ?? join?.data?.subscription_id;
    if (subscriptionId === undefined) return refuse();
    try {
      await categoriesWith(c, link.orgId, subscriptionId);
    } catch {
      return refuse();
    }
    const change = leave?.data
      ? await unsubscribe(c.var.db, link, { subscriptionId, reason: leave.data.reason ?? null, comment: leave.data.comment || null, source: 'page' })
      : await resubscribe(c.var.db, link, subscriptionId);
    await recountUnsubscribes(c.env, c.var.db, link.orgId, [change]);
    if (change?.changed) announceAfter(c, link.orgId);
    const back = new URLSearchParams({ m: fields.m, [fields.after]: String(subscriptionId) });
    return c.redirect(`/unsubscribe?${back}`, 303);
  });
