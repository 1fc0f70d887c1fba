import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { UNSUBSCRIBE_LIMITS, UNSUBSCRIBE_REASONS, type UnsubscribePageData } from '../../../shared/contracts/unsubscribe';
import { LANGUAGE_NAMES, LANGUAGES, type LanguageCode } from '../../../shared/languages';
import { CONTACT_NAME_MAX } from './profile';
import type { PageTranslator } from './strings';

// The public unsubscribe page as plain html: no script, one small inline stylesheet, forms that POST (routes.ts).
// Recipients open it on phones, often on slow networks: it must show at once and work with JavaScript off. Every
// value is escaped by the html tag; the signed link goes back in each form as a hidden field. A message's link (m)
// asks about the message's category; a preferences link (p, contact-scoped) shows the same page without a message.

/** What happened just before, as the redirect after a change says (shown only when it is still true). */
export type PageResult = { kind: 'done' | 'undone'; id: number; name: string } | { kind: 'changed' | 'saved' | 'left_all' } | null;

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = raw(`
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;background:#f1f3f5}
main{max-width:520px;margin:0 auto;padding:16px}
.card{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:20px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:1.5rem;margin:0 0 4px}
h2{font-size:1rem;margin:0 0 8px}
p{margin:0 0 12px}
.dim{color:#868e96}.small{font-size:.875rem}
.alert{padding:12px;border-radius:6px;margin:12px 0}
.green{background:#ebfbee;color:#2b8a3e}.blue{background:#e7f5ff;color:#1864ab}.red{background:#fff5f5;color:#c92a2a}
form{margin:0}
label,legend{display:block;font-weight:500;font-size:.9375rem;margin-bottom:6px;padding:0}
fieldset{border:0;padding:0;margin:16px 0}
.choice{display:flex;gap:10px;align-items:center;font-weight:400;margin:0;padding:6px 0}
.choice input{width:20px;height:20px;margin:0}
select,textarea,input[type=text]{width:100%;font:inherit;padding:8px 10px;border:1px solid #ced4da;border-radius:6px;background:#fff}
textarea{min-height:4.5em;resize:vertical}
button{font:inherit;font-weight:600;min-height:44px;padding:8px 18px;border-radius:6px;border:1px solid #ced4da;background:#fff;color:#212529;cursor:pointer}
.danger{background:#e03131;border-color:#e03131;color:#fff;width:100%;margin-top:8px}
.question{font-weight:600}
hr{border:0;border-top:1px solid #dee2e6;margin:20px 0}
ul{list-style:none;margin:0;padding:0}
li{display:flex;justify-content:space-between;align-items:center;gap:12px;padding:8px 0;border-top:1px solid #f1f3f5}
li:first-child{border-top:0}
li span{overflow-wrap:anywhere}
li small{display:block;color:#868e96}
footer{margin-top:16px;text-align:center}
.save{margin-top:12px}
`);

function frame(language: LanguageCode, title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body><main><div class="card" data-testid="unsubscribe">${body}</div></main></body>
</html>`;
}

/** The page for a link that does not work (forged, incomplete, stale). */
export function invalidLinkPage(language: LanguageCode, tr: PageTranslator): Html {
  return frame(
    language,
    tr.t('invalidTitle'),
    html`<div data-testid="unsubscribe-invalid"><h1>${tr.t('invalidTitle')}</h1><p>${tr.t('invalidText')}</p></div>`,
  );
}

/** A page that could not be served now (too many requests): try again. */
export function failedPage(language: LanguageCode, tr: PageTranslator): Html {
  return frame(language, tr.t('title'), html`<h1>${tr.t('title')}</h1><p class="alert red" role="alert">${tr.t('failed')}</p>`);
}

/** The signed link the page was opened with, given back by each of its forms: `m` a message's, `p` a preferences link; `lang` the visitor's choice. */
export interface PageLink {
  name: 'm' | 'p';
  token: string;
  lang: LanguageCode | null;
}

function hiddenLink(link: PageLink): Html {
  return html`<input type="hidden" name="${link.name}" value="${link.token}">${link.lang ? html`<input type="hidden" name="lang" value="${link.lang}">` : ''}`;
}

/** A form that changes one category: `action` leave or join, `after` what the page says after it. */
function changeForm(link: PageLink, action: 'leave' | 'join', after: 'done' | 'undone' | 'changed', subscriptionId: number, button: Html): Html {
  return html`<form method="post" action="/unsubscribe/change">${hiddenLink(link)}<input type="hidden" name="action" value="${action}"><input type="hidden" name="after" value="${after}"><input type="hidden" name="subscription_id" value="${subscriptionId}">${button}</form>`;
}

export interface PageInput {
  language: LanguageCode;
  tr: PageTranslator;
  link: PageLink;
  page: UnsubscribePageData;
  /** The contact's own details, editable on the page. */
  contact: { name: string; language: LanguageCode | null };
  result: PageResult;
  /** A change that was refused (bad input): said at the top, nothing changed. */
  failed?: 'failed' | 'detailsInvalid';
}

/**
 * The page: for a message's link the question (or a choice of category), reasons, comment and confirm, the result
 * with undo; then every category with its standing and join/leave, the contact's name and language, and "unsubscribe
 * from everything".
 */
export function unsubscribePage({ language, tr, link, page, contact, result, failed }: PageInput): Html {
  const subscribed = page.categories.filter((c) => c.subscribed);
  const asked = page.category && subscribed.some((c) => c.id === page.category!.id) ? page.category : null;
  const listed = page.categories.filter((c) => c.id !== page.category?.id);
  const org = page.organization.name;

  const main = (): Html | string => {
    if (result?.kind === 'done') {
      return html`<div data-testid="unsubscribe-done"><p class="alert green" role="status">${tr.t('done', { category: result.name })}</p>${changeForm(
        link,
        'join',
        'undone',
        result.id,
        html`<button type="submit" data-testid="unsubscribe-undo">${tr.t('undo')}</button>`,
      )}</div>`;
    }
    if (result?.kind === 'undone') {
      return html`<div data-testid="unsubscribe-undone"><p class="alert blue" role="status">${tr.t('undone', { category: result.name })}</p></div>`;
    }
    // A preferences link names no message: the list below is the page.
    if (link.name === 'p') return '';
    if (subscribed.length === 0) return html`<p data-testid="unsubscribe-nothing">${tr.t('nothingToChoose')}</p>`;
    const category = asked
      ? html`<p class="question" data-testid="unsubscribe-question">${tr.t('question', { category: asked.name })}</p><input type="hidden" name="subscription_id" value="${asked.id}">`
      : html`<label for="category">${tr.t('chooseCategory')}</label><select id="category" name="subscription_id" data-testid="unsubscribe-category">${subscribed.map(
          (c) => html`<option value="${c.id}">${c.name}</option>`,
        )}</select>`;
    return html`<form method="post" action="/unsubscribe/change">${hiddenLink(link)}<input type="hidden" name="action" value="leave"><input type="hidden" name="after" value="done">
${category}
<fieldset><legend>${tr.t('reasonLabel')}</legend>${UNSUBSCRIBE_REASONS.map(
      (r) => html`<label class="choice"><input type="radio" name="reason" value="${r}" data-testid="unsubscribe-reason-${r}">${tr.reason(r)}</label>`,
    )}</fieldset>
<label for="comment">${tr.t('commentLabel')}</label><textarea id="comment" name="comment" maxlength="${UNSUBSCRIBE_LIMITS.comment}" data-testid="unsubscribe-comment"></textarea>
<button type="submit" class="danger" data-testid="unsubscribe-confirm">${tr.t('confirm')}</button>
</form>`;
  };

  const categoryList = (): Html | string => {
    if (listed.length === 0) return '';
    const standing = (c: (typeof listed)[number]) => (c.pending ? tr.t('pending') : c.subscribed ? tr.t('subscribed') : tr.t('notSubscribed'));
    // A pending sign-up is left like a subscription; the confirmation mail, not this page, confirms it.
    const inside = (c: (typeof listed)[number]) => c.subscribed || c.pending;
    return html`${link.name === 'm' ? html`<hr>` : ''}<h2>${page.category ? tr.t('others') : tr.t('subscriptions')}</h2><ul data-testid="unsubscribe-categories">${listed.map(
      (c) =>
        html`<li data-testid="unsubscribe-category-${c.id}"><span>${c.name}<small>${standing(c)}</small></span>${changeForm(
          link,
          inside(c) ? 'leave' : 'join',
          'changed',
          c.id,
          html`<button type="submit" data-testid="unsubscribe-toggle-${c.id}">${inside(c) ? tr.t('unsubscribeFrom') : tr.t('subscribe')}</button>`,
        )}</li>`,
    )}</ul>`;
  };

  const details = (): Html =>
    html`<hr><h2>${tr.t('details')}</h2><form method="post" action="/unsubscribe/profile" data-testid="unsubscribe-details">${hiddenLink(link)}
<label for="name">${tr.t('nameLabel')}</label><input type="text" id="name" name="name" value="${contact.name}" maxlength="${CONTACT_NAME_MAX}" required data-testid="unsubscribe-name">
<label for="language" class="save">${tr.t('languageLabel')}</label><select id="language" name="language" data-testid="unsubscribe-language"><option value="">${tr.t('languageUnset')}</option>${LANGUAGES.map(
      (code) => html`<option value="${code}"${code === contact.language ? ' selected' : ''}>${LANGUAGE_NAMES[code]}</option>`,
    )}</select>
<button type="submit" class="save" data-testid="unsubscribe-save">${tr.t('save')}</button></form>`;

  const leaveAll = (): Html | string =>
    page.categories.some((c) => c.subscribed || c.pending)
      ? html`<hr><form method="post" action="/unsubscribe/leave-all">${hiddenLink(link)}<button type="submit" class="danger" data-testid="unsubscribe-leave-all">${tr.t('leaveAll')}</button></form>`
      : '';

  const notice = (): Html | string => {
    if (failed) return html`<p class="alert red" role="alert" data-testid="unsubscribe-failed">${tr.t(failed)}</p>`;
    if (result?.kind === 'changed' || result?.kind === 'saved' || result?.kind === 'left_all') {
      const key = ({ changed: 'changed', saved: 'saved', left_all: 'leftAll' } as const)[result.kind];
      return html`<p class="alert green" role="status" data-testid="unsubscribe-${result.kind.replace('_', '-')}">${tr.t(key)}</p>`;
    }
    return '';
  };

  const title = link.name === 'p' ? tr.t('preferencesTitle') : tr.t('title');
  return frame(
    language,
    `${org}: ${title}`,
    html`<h1>${title}</h1>
<p class="dim" data-testid="unsubscribe-organization">${tr.t('from', { organization: org })}</p>
${page.recipient ? html`<p class="dim small">${tr.t('recipient', { recipient: page.recipient })}</p>` : ''}
${notice()}
${main()}
${categoryList()}
${details()}
${leaveAll()}
<footer class="dim small">${tr.t('footer', { organization: org })}</footer>`,
  );
}
