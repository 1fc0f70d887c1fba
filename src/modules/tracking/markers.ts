// The marks compile.ts leaves in a broadcast's html and text where tracking goes, and the html that replaces the
// honeypot's and the pixel's. Marks are made of Unicode noncharacters (U+FDD0...), which no text people write
// contains (compile.ts drops any from a template): Liquid and the html parser pass them through untouched.
//   \uFDD0 L<i> \uFDD2            link i's tracked URL
//   \uFDD0 P<i> \uFDD1 <href> \uFDD2  link i, whose href (a raw attribute value, placeholders rendered) is signed per message
//   \uFDD0 H \uFDD2 / \uFDD0 O \uFDD2   the honeypot link / the open pixel

const START = '\uFDD0';
const INSIDE = '\uFDD1';
const END = '\uFDD2';

export const MARKER = { honeypot: `${START}H${END}`, pixel: `${START}O${END}` } as const;

/** Every noncharacter of the range the marks use (U+FDD0 to U+FDEF). */
export const NONCHARACTERS = /[\uFDD0-\uFDEF]/g;

export const linkMarker = (index: number) => `${START}L${index}${END}`;
export const personalisedMarker = (index: number, rawHref: string) => `${START}P${index}${INSIDE}${rawHref}${END}`;

/** Matches every mark: [1] the kind (H, O, L, P), [2] the link index, [3] a personalised link's href. */
export const markerPattern = () => /\uFDD0([HOLP])(\d*)(?:\uFDD1([^\uFDD2]*))?\uFDD2/g;

/** An attribute's text as the browser would read it (the rewriter hands it over as written: `&amp;` and all). */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ({ amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' } as Record<string, string>)[lower] ?? whole;
  });
}

/** The 1x1 open pixel, last in the body. */
export function pixelHtml(src: string): string {
  return `<img src="${src}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;overflow:hidden" />`;
}

/** The hidden honeypot link, first in the body: no person clicks what they cannot see; scanners follow every href. */
export function honeypotHtml(href: string): string {
  return `<a href="${href}" style="display:none !important;font-size:0;line-height:0;max-height:0;color:transparent" aria-hidden="true" tabindex="-1"></a>`;
}
