import { FORM_POST_FIELDS, type FormField } from './contracts/form';

// The embed snippet of a hosted form (issue 39): a plain html <form> posting to the hosted endpoint, no script and no
// style, with the field names the hosted page reads (FORM_POST_FIELDS, src/modules/form/public/submission.ts). Pure:
// the console shows it with a Copy button and the worker can render it alike. Every value is html-escaped.

export interface EmbedLabels {
  email: string;
  name: string;
  phone: string;
  subscriptions: string;
  submit: string;
  honeypot: string;
}

export interface EmbedForm {
  /** The hosted page's address (Form.url). */
  url: string;
  fields: FormField[];
  /** The subscriptions offered, in order, with their names. */
  subscriptions: { id: number; name: string }[];
  /** Custom fields' names by alias (a field missing here is shown by its alias). */
  customNames?: Record<string, string>;
  /** The visitor language the hosted page answers in (posted as `lang`). */
  language: string;
  labels: EmbedLabels;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string | number) => String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

function input(name: string, label: string, type: string, required: boolean): string {
  const id = `relay-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return `  <p><label for="${escapeHtml(id)}">${escapeHtml(label)}</label><br><input id="${escapeHtml(id)}" type="${type}" name="${escapeHtml(name)}"${required ? ' required' : ''}></p>`;
}

/** The snippet's html, one element a line. */
export function formEmbedHtml(form: EmbedForm): string {
  const { labels } = form;
  const lines = [`<form method="post" action="${escapeHtml(form.url)}" accept-charset="utf-8">`];
  for (const field of form.fields) {
    if (field.kind === 'email') lines.push(input(FORM_POST_FIELDS.email, labels.email, 'email', true));
    else if (field.kind === 'name') lines.push(input(FORM_POST_FIELDS.name, labels.name, 'text', field.required));
    else if (field.kind === 'phone') lines.push(input(FORM_POST_FIELDS.phone, labels.phone, 'tel', field.required));
    else if (field.alias)
      lines.push(input(`${FORM_POST_FIELDS.customPrefix}${field.alias}`, form.customNames?.[field.alias] ?? field.alias, 'text', field.required));
  }
  if (form.subscriptions.length > 1) {
    lines.push(`  <fieldset><legend>${escapeHtml(labels.subscriptions)}</legend>`);
    for (const s of form.subscriptions)
      lines.push(
        `    <label><input type="checkbox" name="${FORM_POST_FIELDS.subscription}" value="${escapeHtml(s.id)}" checked> ${escapeHtml(s.name)}</label><br>`,
      );
    lines.push('  </fieldset>');
  } else if (form.subscriptions.length === 1) {
    lines.push(`  <input type="hidden" name="${FORM_POST_FIELDS.subscription}" value="${escapeHtml(form.subscriptions[0].id)}">`);
  }
  lines.push(`  <input type="hidden" name="${FORM_POST_FIELDS.language}" value="${escapeHtml(form.language)}">`);
  // The honeypot: out of sight and out of the tab order; a person leaves it empty, a bot fills it.
  lines.push(
    `  <p style="position:absolute;left:-9999px" aria-hidden="true"><label>${escapeHtml(labels.honeypot)} <input type="text" name="${FORM_POST_FIELDS.honeypot}" tabindex="-1" autocomplete="off"></label></p>`,
  );
  lines.push(`  <p><button type="submit">${escapeHtml(labels.submit)}</button></p>`, '</form>');
  return `${lines.join('\n')}\n`;
}
