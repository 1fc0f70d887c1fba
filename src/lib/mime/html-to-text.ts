// A readable plain-text version of an html email, for the text/plain alternative when none was written.

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  laquo: '«',
  raquo: '»',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  euro: '€',
  pound: '£',
  bull: '•',
  middot: '·',
};

/** Decodes character references (&amp; &#233; &#xE9; and the common named ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

export interface HtmlToTextOptions {
  /** Also keep the address of links whose href this accepts (besides http:, https: and mailto:). */
  isLink?: (href: string) => boolean;
}

/**
 * Turns html into text a person can read in a plain-text mail client: block elements become line breaks, list
 * items get a dash, links keep their address ("text (https://...)"), scripts, styles, comments and links hidden
 * from people (aria-hidden) go.
 */
export function htmlToText(html: string, options: HtmlToTextOptions = {}): string {
  let text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(head|script|style|title|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<a\b[^>]*\baria-hidden\s*=\s*["']?true["']?[^>]*>[\s\S]*?<\/a\s*>/gi, '')
    // Line breaks in html source are only spaces; the tags below decide where lines end.
    .replace(/\s+/g, ' ')
    .replace(/<a\b[^>]*?\bhref\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))[^>]*>([\s\S]*?)<\/a\s*>/gi, (_m, _q, d, s, u, inner: string) => {
      const href = decodeEntities((d ?? s ?? u ?? '').trim());
      const label = inner.replace(/<[^>]*>/g, '').trim();
      if (!/^(https?:|mailto:)/i.test(href) && !options.isLink?.(href)) return inner;
      const shown = href.replace(/^mailto:/i, '');
      return label && decodeEntities(label) !== shown ? `${inner} (${href})` : shown;
    })
    .replace(/<img\b[^>]*?\balt\s*=\s*("([^"]*)"|'([^']*)')[^>]*>/gi, (_m, _q, d, s) => d ?? s ?? '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<\/(p|div|h[1-6]|table|ul|ol|blockquote|section|article|header|footer)\s*>/gi, '\n\n')
    .replace(/<(p|div|h[1-6]|table|ul|ol|blockquote|section|article|header|footer)\b[^>]*>/gi, '\n\n')
    .replace(/<\/tr\s*>/gi, '\n')
    .replace(/<\/li\s*>/gi, '')
    .replace(/<\/t[dh]\s*>/gi, '\t')
    .replace(/<hr\b[^>]*>/gi, '\n----\n')
    .replace(/<[^>]*>/g, '');
  text = decodeEntities(text)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text;
}
