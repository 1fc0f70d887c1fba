import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppEnv } from '../../../context';
import { ApiError } from '../../../lib/api-error';
import { resubscribeBody, unsubscribeBody } from '../../../shared/contracts/unsubscribe';
import { limitPublicRequest, readLink, readPreferencesLink, type LinkTarget } from '../link';
import { categoriesWith, pageData } from '../public-routes';
import { categoriesOf, joinByPerson, recountUnsubscribes, unsubscribe } from '../store';
import { failedPage, invalidLinkPage, unsubscribePage, type PageLink, type PageResult } from './render';
import { acceptedLanguage, isLanguage, type LanguageCode } from '../../../shared/languages';
import { pageTranslator } from './strings';
import { announceAfter } from '../../event/announce';
import { profileForm, profileOf, saveProfile } from './profile';

// The public unsubscribe and preferences page, rendered here as plain html (render.ts) so it works without JavaScript
// and loads none:
//   GET  /unsubscribe?m=<message link>     the page for a message (opening it changes nothing: link scanners follow GETs)
//   GET  /unsubscribe?p=<preferences link> the same page for the contact alone (src/lib/templating/preferences-link.ts)
//   POST /unsubscribe/change               leave or join one category
//   POST /unsubscribe/profile              the contact's name and language
//   POST /unsubscribe/leave-all            leave every category
// Each POST then 303s back to the page saying what happened (?done=, ?undone=, ?changed=, ?saved=, ?left_all=), so
// a reload repeats nothing. The RFC 8058 one-click POST to /unsubscribe?m= is one-click.ts. Every change goes to the
// organisation and contact the signed link names, through the same store as the JSON API (public-routes.ts); a
// forged or expired link gets the broken-link page (404), bad input the page again with a message (422) and no change.
// The page speaks ?lang= when the visitor chose one, else the contact's language, else the browser's.

/** The page is personal and changes as the recipient acts: never cached. */
const NO_STORE = { 'cache-control': 'no-store' } as const;

const AFTER = ['done', 'undone', 'changed'] as const;
type After = (typeof AFTER)[number];

function translatorFor(language: LanguageCode) {
  return { language, tr: pageTranslator(language) };
}

/** The language before the contact is known (the broken-link page, "try again"): the visitor's choice or the browser's. */
function visitorLanguage(c: Context<AppEnv>, lang: string | undefined) {
  return translatorFor(isLanguage(lang) ? lang : acceptedLanguage(c.req.header('accept-language')));
}

/** The link a request carries, as text: `m` (a message's) wins over `p` (a preferences link), as one-click reads m. */
function pageLinkOf(fields: { m?: unknown; p?: unknown; lang?: unknown }): PageLink {
  const lang = isLanguage(fields.lang) ? fields.lang : null;
  if (typeof fields.m === 'string' && fields.m) return { name: 'm', token: fields.m, lang };
  return { name: 'p', token: typeof fields.p === 'string' ? fields.p : '', lang };
}

/** What the link names, or the answer to give instead: the broken-link page, or "try again" when limited. */
async function targetOr(c: Context<AppEnv>, link: PageLink): Promise<LinkTarget | Response> {
  const { language, tr } = visitorLanguage(c, link.lang ?? undefined);
  try {
    await limitPublicRequest(c);
    return link.name === 'm' ? await readLink(c, link.token) : await readPreferencesLink(c, link.token);
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
  for (const kind of ['changed', 'saved', 'left_all'] as const) if (query[kind]) return { kind };
  return null;
}

/** Renders the page for `target` in the visitor's chosen language, else the contact's, else the browser's. */
async function renderPage(c: Context<AppEnv>, link: PageLink, target: LinkTarget, result: PageResult, failed?: 'failed' | 'detailsInvalid') {
  const [page, contact] = await Promise.all([pageData(c, target), profileOf(c.var.db, target)]);
  const { language, tr } = translatorFor(link.lang ?? contact.language ?? acceptedLanguage(c.req.header('accept-language')));
  return c.html(unsubscribePage({ language, tr, link, page, contact, result, failed }), failed ? 422 : 200, NO_STORE);
}

/** The page's address with what happened, for the 303 after a change. */
function backTo(link: PageLink, said: Record<string, string>, keepLang = true): string {
  const query = new URLSearchParams({ [link.name]: link.token, ...said });
  if (keepLang && link.lang) query.set('lang', link.lang);
  return `/unsubscribe?${query}`;
}

/** A form's fields as text (a non-form body reads as empty, which is a broken link). */
async function formOf(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  try {
    return await c.req.parseBody();
  } catch {
    return {};
  }
}

/** The change form's fields as the JSON API's bodies take them (numbers as numbers, empty as absent). */
function changeFieldsOf(form: Record<string, unknown>, link: PageLink) {
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : undefined);
  const id = text('subscription_id');
  return {
    // The JSON bodies need a token; which kind was checked already.
    m: link.token,
    action: text('action'),
    after: (AFTER as readonly string[]).includes(text('after') ?? '') ? (text('after') as After) : 'changed',
    subscription_id: id && /^\d{1,15}$/.test(id) ? Number(id) : id,
    reason: text('reason') || null,
    comment: text('comment')?.trim() || null,
  };
}

export const unsubscribePageRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const link = pageLinkOf(c.req.query());
    const target = await targetOr(c, link);
    if (target instanceof Response) return target;
    const page = await pageData(c, target);
    return renderPage(c, link, target, resultOf(c.req.query(), page.categories));
  })
  .post('/change', async (c) => {
    const form = await formOf(c);
    const link = pageLinkOf(form);
    const target = await targetOr(c, link);
    if (target instanceof Response) return target;
    const fields = changeFieldsOf(form, link);
    const refuse = () => renderPage(c, link, target, null, 'failed');
    const leave = fields.action === 'leave' ? unsubscribeBody.safeParse(fields) : null;
    const join = fields.action === 'join' ? resubscribeBody.safeParse(fields) : null;
    const subscriptionId = leave?.data?.subscription_id ?? join?.data?.subscription_id;
    if (subscriptionId === undefined) return refuse();
    try {
      await categoriesWith(c, target.orgId, subscriptionId);
    } catch {
      return refuse();
    }
    // A pending sign-up can be left here; only its confirmation mail joins it.
    if (join && (await pageData(c, target)).categories.some((s) => s.id === subscriptionId && s.pending)) return refuse();
    const change = leave?.data
      ? await unsubscribe(c.var.db, target, { subscriptionId, reason: leave.data.reason ?? null, comment: leave.data.comment || null, source: 'page' })
      : await joinByPerson(c.var.db, target, subscriptionId);
    await recountUnsubscribes(c.env, c.var.db, target.orgId, [change]);
    if (change?.changed) announceAfter(c, target.orgId);
    return c.redirect(backTo(link, { [fields.after]: String(subscriptionId) }), 303);
  })
  .post('/profile', async (c) => {
    const form = await formOf(c);
    const link = pageLinkOf(form);
    const target = await targetOr(c, link);
    if (target instanceof Response) return target;
    const profile = profileForm.safeParse(form);
    if (!profile.success) return renderPage(c, link, target, null, 'detailsInvalid');
    await saveProfile(c.var.db, target, profile.data);
    announceAfter(c, target.orgId);
    // The page opens in the language just chosen, not in the one the visitor picked before.
    return c.redirect(backTo(link, { saved: '1' }, false), 303);
  })
  .post('/leave-all', async (c) => {
    const link = pageLinkOf(await formOf(c));
    const target = await targetOr(c, link);
    if (target instanceof Response) return target;
    const changes = [];
    for (const { id } of await categoriesOf(c.var.db, target.orgId)) {
      changes.push(await unsubscribe(c.var.db, target, { subscriptionId: id, reason: null, comment: null, source: 'page' }));
    }
    await recountUnsubscribes(c.env, c.var.db, target.orgId, changes);
    if (changes.some((change) => change.changed)) announceAfter(c, target.orgId);
    return c.redirect(backTo(link, { left_all: '1' }), 303);
  });
