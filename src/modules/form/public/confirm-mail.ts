import { sql } from 'drizzle-orm';
import { html } from 'hono/html';
import type { Database } from '../../../db/client';
import type { PlaceholderScope } from '../../../lib/templating/placeholders';
import { renderTemplate, type TemplateText } from '../../../lib/templating/render-template';
import type { TemplateType } from '../../../shared/contracts/template';
import type { FormTranslator } from './strings';

// The content of a form's confirmation mail. It carries NOTHING the visitor typed (a bot filling the name field with
// spam must not get it delivered by the organisation's sender): only the organisation's name, the names of the
// subscriptions and the confirmation link. The form's template, when it has one, is rendered with only those
// (`data.organization`, `data.subscriptions`, `data.confirm_url`; also `organization.name`, `subscriptions` and
// `confirm_url`; `contact` is empty);
// otherwise the default of the visitor's language.

export interface MailContent {
  subject: string;
  html: string;
  text: string | null;
  templateId: number | null;
}

export interface ConfirmFacts {
  organization: { name: string; domain: string };
  subscriptions: string[];
  confirmUrl: string;
}

/** The default mail in the visitor's language. */
export async function defaultConfirmMail(t: FormTranslator, facts: ConfirmFacts): Promise<MailContent> {
  const values = { organization: facts.organization.name, subscriptions: facts.subscriptions.join(', ') };
  const intro = t('mailIntro', values);
  const body = await html`<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#212529;line-height:1.5">
<p>${intro}</p>
<p><a href="${facts.confirmUrl}" style="display:inline-block;padding:10px 18px;background:#1864ab;color:#fff;border-radius:6px;text-decoration:none;font-weight:600">${t('mailButton')}</a></p>
<p style="color:#5c636a;font-size:14px">${t('mailFallback')}<br><a href="${facts.confirmUrl}">${facts.confirmUrl}</a></p>
<p style="color:#5c636a;font-size:14px">${t('mailIgnore')}</p>
</body></html>`;
  return {
    subject: t('mailSubject', values),
    html: body.toString(),
    text: `${intro}\n\n${t('mailButton')}: ${facts.confirmUrl}\n\n${t('mailIgnore')}\n`,
    templateId: null,
  };
}

/** The form's template rendered with the facts only; null when it is gone, not an email template, or fails to render. */
export async function templateConfirmMail(db: Database, orgId: number, templateId: number, facts: ConfirmFacts): Promise<MailContent | null> {
  const row = await db.get<{ id: number; type: string; subject: string | null; body: string; body_plain: string | null } | undefined>(sql`
    SELECT id, type, subject, body, body_plain FROM templates WHERE id = ${templateId} AND org_id = ${orgId}`);
  if (!row || !['html', 'email'].includes(row.type)) return null;
  const data = { organization: facts.organization.name, subscriptions: facts.subscriptions.join(', '), confirm_url: facts.confirmUrl };
  const scope: PlaceholderScope & Record<string, unknown> = {
    contact: {},
    organization: facts.organization,
    unsubscribe_url: '',
    data,
    subscriptions: data.subscriptions,
    confirm_url: data.confirm_url,
  };
  const template: TemplateText = { type: row.type as TemplateType, subject: row.subject, body: row.body, bodyPlain: row.body_plain };
  try {
    const rendered = renderTemplate(template, scope);
    if (!rendered.subject) return null;
    return { subject: rendered.subject, html: rendered.body, text: rendered.body_plain, templateId: row.id };
  } catch {
    return null;
  }
}
