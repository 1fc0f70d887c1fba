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

function renderPart(field: TemplateField, text: string, scope: PlaceholderScope, maxBytes: number): string {
  try {
    return renderLiquid(parseLiquid(text), scope, maxBytes);
  } catch (error) {
    const reason = error instanceof LiquidTemplateError ? error.message : String(error);
    throw new TemplateRenderError(field, FAILED[field](reason));
  }
}

/** Renders subject (email only), body and plain body (email only) for one recipient; throws TemplateRenderError. */
export function renderTemplate(template: TemplateText, scope: PlaceholderScope): RenderedTemplate {
  const email = template.type === 'email';
  const subject = email && template.subject ? renderPart('subject', template.subject, scope, TEMPLATE_LIMITS.renderedSubjectBytes) : null;
  const body = renderPart('body', template.body, scope, TEMPLATE_LIMITS.renderedBodyBytes);
  const bodyPlain = email && template.bodyPlain ? renderPart('body_plain', template.bodyPlain, scope, TEMPLATE_LIMITS.renderedPlainBytes) : null;
  return { subject: subject === null ? null : subject.replace(/[\r\n]+/g, ' ').trim(), body, body_plain: bodyPlain };
}
