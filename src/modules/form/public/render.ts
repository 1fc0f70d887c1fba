import { html, raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { PREFERENCES_LINK_DAYS } from '../../../lib/templating/preferences-link';
import { FORM_POST_FIELDS } from '../../../shared/contracts/form';
import type { LanguageCode } from '../../../shared/languages';
import type { PublicForm } from './read-form';
import type { FormKey, FormTranslator } from './strings';
import { customName, TEXT_MAX } from './submission';

// The hosted form and its answer pages as plain html: one small inline stylesheet (allowed by its hash, page-policy.ts),
// no script of ours, nothing authored by the organisation but text (the form's and fields' names, the subscriptions'
// names, the success message), every value escaped by the html tag. The page works with JavaScript off; with it on
// and Turnstile configured, the widget adds its token to the form.

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

export const PAGE_STYLE = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#212529;background:#f1f3f5}
main{max-width:520px;margin:0 auto;padding:16px}
.card{background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:20px}
h1{font-size:1.5rem;margin:0 0 4px;overflow-wrap:anywhere}
p{margin:0 0 12px}
.dim{color:#5c636a}.small{font-size:.875rem}
.alert{padding:12px;border-radius:6px;margin:12px 0}
.green{background:#ebfbee;color:#2b6b3a}.red{background:#fff5f5;color:#b02525}
label,legend{display:block;font-weight:500;margin:0 0 4px;padding:0}
fieldset{border:0;padding:0;margin:0 0 16px}
.field{margin:0 0 16px}
.choice{display:flex;gap:10px;align-items:center;font-weight:400;padding:4px 0}
.choice input{width:20px;height:20px;margin:0}
input,select{width:100%;font:inherit;padding:8px 10px;border:1px solid #adb5bd;border-radius:6px;background:#fff;min-height:44px}
.error{color:#b02525;font-size:.875rem;margin:4px 0 0}
[aria-invalid=true]{border-color:#b02525}
button{font:inherit;font-weight:600;min-height:44px;padding:8px 18px;border-radius:6px;border:1px solid #1864ab;background:#1864ab;color:#fff;cursor:pointer;width:100%}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.cf-turnstile{margin:0 0 16px}`;

export function frame(language: LanguageCode, title: string, body: Html, head: Html | string = ''): Html {
  return html`<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${raw(PAGE_STYLE)}</style>
${head}
</head>
<body><main><div class="card">${body}</div></main></body>
</html>`;
}

/** A page that says one thing: a title and a line, in the colour of its kind. */
export function messagePage(language: LanguageCode, title: string, text: string, kind: 'ok' | 'error' | 'plain', testId: string): Html {
  const cls = kind === 'ok' ? 'alert green' : kind === 'error' ? 'alert red' : '';
  return frame(language, title, html`<h1>${title}</h1><p class="${cls}" role="${kind === 'error' ? 'alert' : 'status'}" data-testid="${testId}">${text}</p>`);
}

export interface FormPageInput {
  language: LanguageCode;
  t: FormTranslator;
  organization: string;
  publicKey: string;
  form: PublicForm;
  /** When the widget is shown: its site key and script. */
  turnstile: { siteKey: string; scriptUrl: string } | null;
  /** What was posted (shown again after a refusal), and the refusal's messages by field name. */
  post?: URLSearchParams;
  errors?: Record<string, FormKey>;
  /** A message for the whole form (a refused token, a limit). */
  alert?: string;
}

/** The hosted form. */
export function formPage(input: FormPageInput): Html {
  const { language, t, form, post, errors = {} } = input;
  const value = (name: string) => post?.get(name) ?? '';
  const chosen = (name: string) => new Set(post?.getAll(name) ?? []);
  const errorOf = (name: string) => (errors[name] ? html`<p class="error" id="${name}-error" data-testid="form-error-${name}">${t(errors[name])}</p>` : '');
  const invalid = (name: string) => (errors[name] ? html` aria-invalid="true" aria-describedby="${name}-error"` : '');
  const mark = (required: boolean) => (required ? html` <span class="dim small">(${t('required')})</span>` : '');

  const input_ = (name: string, label: string, type: string, required: boolean, extra: string, max?: number) =>
    html`<div class="field"><label for="${name}">${label}${mark(required)}</label><input id="${name}" name="${name}" type="${type}" value="${value(name)}"${required ? raw(' required') : ''}${max ? html` maxlength="${max}"` : ''}${raw(extra)}${invalid(name)}>${errorOf(name)}</div>`;

  const fields = form.fields.map((field) => {
    if (field.kind === 'email') return input_(FORM_POST_FIELDS.email, t('email'), 'email', true, ' autocomplete="email" inputmode="email"', 254);
    if (field.kind === 'name') return input_(FORM_POST_FIELDS.name, t('name'), 'text', field.required, ' autocomplete="name"', TEXT_MAX.name);
    if (field.kind === 'phone') return input_(FORM_POST_FIELDS.phone, t('phone'), 'tel', field.required, ' autocomplete="tel"', 20);
    const info = field.alias ? form.custom.get(field.alias) : undefined;
    if (!info || !field.alias) return '';
    const name = customName(field.alias);
    if (info.type === 'boolean')
      return html`<div class="field"><label class="choice"><input type="checkbox" name="${name}" value="yes"${chosen(name).has('yes') ? raw(' checked') : ''}${field.required ? raw(' required') : ''}${invalid(name)}>${info.name}${mark(field.required)}</label>${errorOf(name)}</div>`;
    if (info.type === 'select')
      return html`<div class="field"><label for="${name}">${info.name}${mark(field.required)}</label><select id="${name}" name="${name}"${field.required ? raw(' required') : ''}${invalid(name)}><option value=""></option>${info.options.map(
        (o) => html`<option value="${o.value}"${value(name) === o.value ? raw(' selected') : ''}>${o.value}</option>`,
      )}</select>${errorOf(name)}</div>`;
    if (info.type === 'multiselect')
      return html`<fieldset${invalid(name)}><legend>${info.name}${mark(field.required)}</legend>${info.options.map(
        (o) =>
          html`<label class="choice"><input type="checkbox" name="${name}" value="${o.value}"${chosen(name).has(o.value) ? raw(' checked') : ''}>${o.value}</label>`,
      )}${errorOf(name)}</fieldset>`;
    return input_(name, info.name, info.type === 'number' ? 'number' : 'text', field.required, info.type === 'number' ? ' step="any"' : '', TEXT_MAX.custom);
  });

  const subscriptionName = FORM_POST_FIELDS.subscription;
  const picked = chosen(subscriptionName);
  const subscriptions =
    form.subscriptions.length > 1
      ? html`<fieldset${invalid(subscriptionName)}><legend>${t('subscriptions')}</legend>${form.subscriptions.map(
          (s) =>
            html`<label class="choice"><input type="checkbox" name="${subscriptionName}" value="${s.id}"${!post || picked.has(String(s.id)) ? raw(' checked') : ''} data-testid="form-subscription-${s.id}">${s.name}</label>`,
        )}${errorOf(subscriptionName)}</fieldset>`
      : '';

  const turnstile = input.turnstile;
  const head = turnstile ? html`<script src="${turnstile.scriptUrl}" async defer></script>` : '';
  const alert = input.alert ?? (Object.keys(errors).length ? t('fixFields') : null);
  return frame(
    language,
    form.name,
    html`<h1>${form.name}</h1>
<p class="dim">${t('heading', { organization: input.organization })}</p>
${alert ? html`<p class="alert red" role="alert" data-testid="form-alert">${alert}</p>` : ''}
<form method="post" action="/f/${input.publicKey}" data-testid="hosted-form">
<input type="hidden" name="${FORM_POST_FIELDS.language}" value="${language}">
${fields}
${subscriptions}
<div class="hp" aria-hidden="true"><label for="${FORM_POST_FIELDS.honeypot}">${t('honeypot')}</label><input id="${FORM_POST_FIELDS.honeypot}" name="${FORM_POST_FIELDS.honeypot}" type="text" tabindex="-1" autocomplete="off"></div>
${turnstile ? html`<div class="cf-turnstile" data-sitekey="${turnstile.siteKey}"></div>` : ''}
<button type="submit" data-testid="form-submit">${t('submit')}</button>
</form>`,
    head,
  );
}

/** The confirmation link's page: one button that POSTs the token (opening the link changes nothing). */
export function confirmPage(language: LanguageCode, t: FormTranslator, token: string, organization: string, subscriptions: string): Html {
  return frame(
    language,
    t('confirmTitle'),
    html`<h1>${t('confirmTitle')}</h1>
<p>${t('confirmText', { organization, subscriptions })}</p>
<form method="post" action="/f/confirm"><input type="hidden" name="t" value="${token}"><button type="submit" data-testid="confirm-button">${t('confirmButton')}</button></form>`,
  );
}

/** "Send me my link": an address in. */
export function linkRequestPage(
  language: LanguageCode,
  t: FormTranslator,
  organization: string,
  options: { email?: string; error?: FormKey; sent?: boolean },
): Html {
  const name = FORM_POST_FIELDS.email;
  return frame(
    language,
    t('linkTitle'),
    html`<h1>${t('linkTitle')}</h1>
${options.sent ? html`<p class="alert green" role="status" data-testid="link-sent">${t('linkSent', { days: PREFERENCES_LINK_DAYS })}</p>` : html`<p>${t('linkText', { organization })}</p>`}
<form method="post" action="/preferences" data-testid="link-form">
<input type="hidden" name="${FORM_POST_FIELDS.language}" value="${language}">
<div class="field"><label for="${name}">${t('email')}</label><input id="${name}" name="${name}" type="email" required autocomplete="email" maxlength="254" value="${options.email ?? ''}"${options.error ? raw(` aria-invalid="true" aria-describedby="${name}-error"`) : ''}>${options.error ? html`<p class="error" id="${name}-error" data-testid="form-error-email">${t(options.error)}</p>` : ''}</div>
<div class="hp" aria-hidden="true"><label for="${FORM_POST_FIELDS.honeypot}">${t('honeypot')}</label><input id="${FORM_POST_FIELDS.honeypot}" name="${FORM_POST_FIELDS.honeypot}" type="text" tabindex="-1" autocomplete="off"></div>
<button type="submit" data-testid="link-submit">${t('linkButton')}</button>
</form>`,
  );
}
