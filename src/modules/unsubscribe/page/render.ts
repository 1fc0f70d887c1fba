import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { UNSUBSCRIBE_LIMITS, UNSUBSCRIBE_REASONS, type UnsubscribePageData } from '../../../shared/contracts/unsubscribe';
import type { LanguageCode } from '../../../shared/languages';
import type { PageTranslator } from './strings';

// The public unsubscribe page as plain html: no script, one small inline stylesheet, forms that POST (routes.ts).
// Recipients open it on phones, often on slow networks: it must show at once and work with JavaScript off. Every
// value is escaped by the html tag; the signed link goes back in each form as a hidden field.

/** What happened just before, as the redirect after a change says (shown only when it is still true). */
export type PageResult = { kind: 'done' | 'undone'; id: number; name: string } | { kind: 'changed' } | null;

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
select,textarea{width:100%;font:inherit;padding:8px 10px;border:1px solid #ced4da;border-radius:6px;background:#fff}
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

/** A form that changes one category: `action` leave or join, `after` what the page says after it. */
function changeForm(m: string, action: 'leave' | 'join', after: 'done' | 'undone' | 'changed', subscriptionId: number, button: Html): Html {
  return html`<form method="post" action="/unsubscribe/change"><input type="hidden" name="m" value="${m}"><input type="hidden" name="action" value="${action}"><input type="hidden" name="after" value="${after}"><input type="hidden" name="subscription_id" value="${subscriptionId}">${button}</form>`;
}

export interface PageInput {
  language: LanguageCode;
  tr: PageTranslator;
  m: string;
  page: UnsubscribePageData;
  result: PageResult;
  /** A change that was refused (bad input): said at the top, nothing changed. */
  failed?: boolean;
}

/** The page: the question (or a choice of category), reasons, comment and confirm; the result with undo; the other categories. */
export function unsubscribePage({ language, tr, m, page, result, failed }: PageInput): Html {
  const subscribed = page.categories.filter((c) => c.subscribed);
  const asked = page.category && subscribed.some((c) => c.id === page.category!.id) ? page.category : null;
  const others = page.categories.filter((c) => c.id !== page.category?.id);
  const org = page.organization.name;

  const main = (): Html => {
    if (result?.kind === 'done') {
      return html`<div data-testid="unsubscribe-done"><p class="alert green" role="status">${tr.t('done', { category: result.name })}</p>${changeForm(
        m,
        'join',
        'undone',
        result.id,
        html`<button type="submit" data-testid="unsubscribe-undo">${tr.t('undo')}</button>`,
      )}</div>`;
    }
    if (result?.kind === 'undone') {
      return html`<div data-testid="unsubscribe-undone"><p class="alert blue" role="status">${tr.t('undone', { category: result.name })}</p></div>`;
    }
    if (subscribed.length === 0) return html`<p data-testid="unsubscribe-nothing">${tr.t('nothingToChoose')}</p>`;
    const category = asked
      ? html`<p class="question" data-testid="unsubscribe-question">${tr.t('question', { category: asked.name })}</p><input type="hidden" name="subscription_id" value="${asked.id}">`
      : html`<label for="category">${tr.t('chooseCategory')}</label><select id="category" name="subscription_id" data-testid="unsubscribe-category">${subscribed.map(
          (c) => html`<option value="${c.id}">${c.name}</option>`,
        )}</select>`;
    return html`<form method="post" action="/unsubscribe/change"><input type="hidden" name="m" value="${m}"><input type="hidden" name="action" value="leave"><input type="hidden" name="after" value="done">
${category}
<fieldset><legend>${tr.t('reasonLabel')}</legend>${UNSUBSCRIBE_REASONS.map(
      (r) => html`<label class="choice"><input type="radio" name="reason" value="${r}" data-testid="unsubscribe-reason-${r}">${tr.reason(r)}</label>`,
    )}</fieldset>
<label for="comment">${tr.t('commentLabel')}</label><textarea id="comment" name="comment" maxlength="${UNSUBSCRIBE_LIMITS.comment}" data-testid="unsubscribe-comment"></textarea>
<button type="submit" class="danger" data-testid="unsubscribe-confirm">${tr.t('confirm')}</button>
</form>`;
  };

  const otherCategories = (): Html | string => {
    if (others.length === 0 || !(page.category || page.categories.length > 1)) return '';
    return html`<hr><h2>${tr.t('others')}</h2><ul data-testid="unsubscribe-categories">${others.map(
      (c) =>
        html`<li><span>${c.name}<small>${c.subscribed ? tr.t('subscribed') : tr.t('notSubscribed')}</small></span>${changeForm(
          m,
          c.subscribed ? 'leave' : 'join',
          'changed',
          c.id,
          html`<button type="submit" data-testid="unsubscribe-toggle-${c.id}">${c.subscribed ? tr.t('unsubscribeFrom') : tr.t('subscribe')}</button>`,
        )}</li>`,
    )}</ul>`;
  };

  return frame(
    language,
    `${org}: ${tr.t('title')}`,
    html`<h1>${tr.t('title')}</h1>
<p class="dim" data-testid="unsubscribe-organization">${tr.t('from', { organization: org })}</p>
${page.recipient ? html`<p class="dim small">${tr.t('recipient', { recipient: page.recipient })}</p>` : ''}
${failed ? html`<p class="alert red" role="alert" data-testid="unsubscribe-failed">${tr.t('failed')}</p>` : ''}
${result?.kind === 'changed' ? html`<p class="alert green" role="status" data-testid="unsubscribe-changed">${tr.t('changed')}</p>` : ''}
${main()}
${otherCategories()}
<footer class="dim small">${tr.t('footer', { organization: org })}</footer>`,
  );
}
