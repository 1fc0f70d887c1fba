import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import type { templates } from '../../db/schema';
import { ApiError, validationFailed } from '../../lib/api-error';
import { loadContactPlaceholders, type PlaceholderScope } from '../../lib/templating/placeholders';
import { renderTemplate, TemplateRenderError, type RenderedTemplate } from '../../lib/templating/render-template';
import { unsubscribeUrl } from '../../lib/templating/unsubscribe-link';
import { TEMPLATE_MESSAGES, type TemplateType } from '../../shared/contracts/template';

type Ctx = Context<AppEnv>;

/** The placeholder variables for one contact of this organisation (none: contact variables are empty); 422 on contact_id when the contact is not theirs. */
export async function scopeForContact(c: Ctx, contactId: number | null | undefined): Promise<PlaceholderScope> {
  let contact: PlaceholderScope['contact'] = {};
  if (contactId) {
    const found = await loadContactPlaceholders(c.var.db, c.var.org.id, contactId);
    if (!found) throw validationFailed({ contact_id: [TEMPLATE_MESSAGES.contactNotFound] });
    contact = found;
  }
  const org = c.var.org;
  return {
    contact,
    organization: { name: org.name, domain: org.domain },
    unsubscribe_url: await unsubscribeUrl(c.env, org.domain, { orgId: org.id, contactId: contactId ?? null, messageId: null }),
  };
}

/** Renders a template row for a request; a render error is a 422 on the subject, body or body_plain field. */
export function renderForRequest(row: typeof templates.$inferSelect, scope: PlaceholderScope): RenderedTemplate {
  try {
    return renderTemplate({ type: row.type as TemplateType, subject: row.subject, body: row.body, bodyPlain: row.bodyPlain }, scope);
  } catch (error) {
    if (error instanceof TemplateRenderError) throw new ApiError(422, 'validation_failed', error.message, { [error.field]: [error.message] });
    throw error;
  }
}
