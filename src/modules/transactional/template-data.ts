// Which of a template's `data` values a message must give. A value the template prints as it is ({{ data.code }})
// is needed: without it the mail would say nothing where the code goes. One it only tests ({% if data.coupon %}),
// loops over, or prints with a fallback ({{ data.name | default: "there" }}) is optional. Read from the source, so
// the rule is the one a person sees in the template.

const PRINTED = /\{\{-?\s*data\.([A-Za-z_][\w-]*)((?:(?!-?\}\}).)*)-?\}\}/gs;

/** The names of data values the template parts print without a default, and `data` lacks (null and '' count as lacking). */
export function missingDataNames(parts: (string | null)[], data: Record<string, unknown>): string[] {
  const missing = new Set<string>();
  for (const part of parts) {
    if (!part) continue;
    for (const [, name, rest] of part.matchAll(PRINTED)) {
      if (/\|\s*default\b/.test(rest)) continue;
      const value = data[name];
      if (value === undefined || value === null || value === '') missing.add(name);
    }
  }
  return [...missing];
}
