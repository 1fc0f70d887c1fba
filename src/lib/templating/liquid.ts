import { Context, Liquid, toValueSync, type Template } from 'liquidjs';

// The one placeholder syntax: Liquid (liquidjs, which parses and renders without eval, so it runs on
// Workers). Missing variables render as nothing (strictVariables off); unknown filters and every other
// render error are reported. Rendering is bounded: Workers clocks do not advance while code runs, so a time
// limit cannot stop a loop; instead every rendered node counts as a step, allocations by filters are capped
// (liquidjs memoryLimit), and the output may not grow past a byte budget.

export const RENDER_LIMITS = {
  /** Template characters one parse accepts. */
  parseChars: 1_000_000,
  /** Rendered nodes (each loop iteration's nodes count again). */
  steps: 200_000,
  /** Characters filters may allocate (append, join, ...). */
  memory: 20_000_000,
} as const;

const engine = new Liquid({
  strictVariables: false,
  strictFilters: true,
  ownPropertyOnly: true,
  cache: false,
  // No file system: include/render/layout find nothing rather than reaching for one.
  templates: {},
  parseLimit: RENDER_LIMITS.parseChars,
  memoryLimit: RENDER_LIMITS.memory,
});

/** An error while parsing or rendering, with liquid's message (it names the line and column). */
export class LiquidTemplateError extends Error {}

/** Parses a template; throws LiquidTemplateError with liquid's message on a syntax error. */
export function parseLiquid(text: string): Template[] {
  try {
    return engine.parse(text);
  } catch (error) {
    throw new LiquidTemplateError(messageOf(error));
  }
}

/** Renders parsed templates against a scope within the step, memory and output limits. */
export function renderLiquid(templates: Template[], scope: object, maxOutputBytes: number): string {
  let steps = 0;
  const stepLimit = {
    use() {},
    check() {
      if (++steps > RENDER_LIMITS.steps)
        throw new LiquidTemplateError(`the template takes more than ${RENDER_LIMITS.steps} steps to render (a loop that is too long?)`);
    },
  };
  const emitter = new BoundedEmitter(maxOutputBytes);
  const ctx = new Context(scope, engine.options, { sync: true }, { renderLimit: stepLimit as never, liquid: engine });
  try {
    toValueSync(engine.renderer.renderTemplates(templates, ctx, emitter));
  } catch (error) {
    throw error instanceof LiquidTemplateError ? error : new LiquidTemplateError(messageOf(error));
  }
  return emitter.buffer;
}

/**
 * Collects output and stops once it passes the byte budget (UTF-8). A UTF-16 code unit is at most 3 bytes, so bytes
 * are counted exactly only once 3 x the characters could pass the budget: counting every write (a TextEncoder pass
 * per piece) was a large part of rendering a big newsletter.
 */
class BoundedEmitter {
  buffer = '';
  private chars = 0;
  /** Exact UTF-8 bytes of `buffer`, once counting them is needed; -1 before. */
  private bytes = -1;
  constructor(private readonly maxBytes: number) {}
  write(value: unknown) {
    const text = outputText(value);
    this.buffer += text;
    if (this.bytes < 0) {
      this.chars += text.length;
      if (this.chars * 3 <= this.maxBytes) return;
      this.bytes = utf8Length(this.buffer);
    } else {
      this.bytes += utf8Length(text);
    }
    if (this.bytes > this.maxBytes) throw new LiquidTemplateError(`the result is larger than ${this.maxBytes} bytes`);
  }
}

/** How liquid writes a value: nothing for nil, lists joined without separator. */
function outputText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(outputText).join('');
  return String(value);
}

/** UTF-8 byte length of a string. */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim() || 'unknown template error';
}
