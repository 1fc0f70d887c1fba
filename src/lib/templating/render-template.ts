import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES, type TemplateType } from '../../shared/contracts/template';
import { LiquidTemplateError, parseLiquid, renderLiquid } from './liquid';
import type { PlaceholderScope } from './placeholders';

// A template's parts rendered for one recipient. Errors name the part they come from, in the words the
// console shows: 'subject generation failed: <liquid error>' / 'body generation failed: <liquid error>'.

export type TemplateField = 'subject' | 'body' | 'body_plain';

export interface TemplateText {
  type: TemplateType;
  subject: string | null;
  body: string;
  bodyPlain: string | null;
}

export interface RenderedTemplate {
  subject: string | null;
  body: string;
  body_plain: string | null;
}

/** A render failure of one part; `field` is where the console shows it. */
export class TemplateRenderError extends Error {
  constructor(
    readonly field: TemplateField,
    message: string,
  ) {
    super(message);
  }
}

const FAILED: Record<TemplateField, (error: string) => string> = {
  subject: TEMPLATE_MESSAGES.subjectFailed,
  body: TEMPLATE_MESSAGES.bodyFailed,
  body_plain: TEMPLATE_MESSAGES.bodyPlainFailed,
};

/** Syntax errors of the given parts, as 422 field messages ({} when all parse). Checked when a template is saved. */
export function templateSyntaxErrors(parts: Partial<Record<TemplateField, string | null | undefined>>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const field of ['subject', 'body', 'body_plain'] as const) {
    const text = parts[field];
    if (!text) continue;
    try {
      parseLiquid(text);
    } catch (error) {
      errors[field] = [`Template syntax error: ${(error as Error).message}`];
    }
  }
  return errors;
}

/** Runs `work`, turning any Liquid error into the TemplateRenderError of `field`. */
function failingAs<T>(field: TemplateField, work: () => T): T {
  try {
    return work();
  } catch (error) {
    const reason = error instanceof LiquidTemplateError ? error.message : String(error);
    throw new TemplateRenderError(field, FAILED[field](reason));
  }
}

/** Renders for one recipient; throws TemplateRenderError. */
export type TemplateRenderer = (scope: PlaceholderScope) => RenderedTemplate;

/**
 * Parses the template once and returns its renderer: a broadcast renders the same template for every
 * recipient of a batch, so it pays for the parse once. A syntax error throws here, as a TemplateRenderError.
 */
export function prepareTemplate(template: TemplateText): TemplateRenderer {
  const email = template.type === 'email';
  const parse = (field: TemplateField, text: string | null) => (text ? failingAs(field, () => parseLiquid(text)) : null);
  // html and email templates carry a subject; a text template has none.
  const subject = template.type !== 'text' ? parse('subject', template.subject) : null;
  const body = parse('body', template.body) ?? [];
  const bodyPlain = email ? parse('body_plain', template.bodyPlain) : null;
  return (scope) => {
    const render = (field: TemplateField, parsed: typeof body | null, maxBytes: number) =>
      parsed ? failingAs(field, () => renderLiquid(parsed, scope, maxBytes)) : null;
    const renderedSubject = render('subject', subject, TEMPLATE_LIMITS.renderedSubjectBytes);
    return {
      subject: renderedSubject === null ? null : renderedSubject.replace(/[\r\n]+/g, ' ').trim(),
      body: render('body', body, TEMPLATE_LIMITS.renderedBodyBytes) ?? '',
      body_plain: render('body_plain', bodyPlain, TEMPLATE_LIMITS.renderedPlainBytes),
    };
  };
}

/** Renders subject (html and email), body and plain body (email only) for one recipient; throws TemplateRenderError. */
export function renderTemplate(template: TemplateText, scope: PlaceholderScope): RenderedTemplate {
  return prepareTemplate(template)(scope);
}
