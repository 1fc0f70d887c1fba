// The marks compile.ts leaves in a broadcast's html and text where tracking goes, and the html that replaces the
// honeypot's and the pixel's. Marks are made of the control characters U+0001 to U+0003, which html text may not
// contain (compile.ts drops any from a template) and which Liquid and the html parser pass through untouched. Not
// characters above U+00FF: a single one makes V8 store the whole message as a two-byte string, and every later
// pass over it (MIME encoding, dot-stuffing, the socket's UTF-8 encoding) several times slower.
//   \u0001 L<i> \u0003              link i's tracked URL
//   \u0001 P<i> \u0002 <href> \u0003  link i, whose href (a raw attribute value, placeholders rendered) is signed per message
//   \u0001 H \u0003 / \u0001 O \u0003    the honeypot link / the open pixel
// U+0004 and U+0005 are compile.ts's own, while it makes the text.

const START = '\u0001';
const INSIDE = '\u0002';
const END = '\u0003';

export const MARKER = { honeypot: `${START}H${END}`, pixel: `${START}O${END}` } as const;

/** The characters marks (and compile.ts) use, dropped from a template before it is marked. */
export const MARK_CHARACTERS = /[\u0001-\u0005]/g;

export const linkMarker = (index: number) => `${START}L${index}${END}`;
export const personalisedMarker = (index: number, rawHref: string) => `${START}P${index}${INSIDE}${rawHref}${END}`;

/** Matches every mark: [1] the kind (H, O, L, P), [2] the link index, [3] a personalised link's href. */
export const markerPattern = () => /\u0001([HOLP])(\d*)(?:\u0002([^\u0003]*))?\u0003/g;

/** The 1x1 open pixel, last in the body. */
export function pixelHtml(src: string): string {
  return `<img\nsrc="${src}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;overflow:hidden" />`;
}

/** The hidden honeypot link, first in the body: no person clicks what they cannot see; scanners follow every href. */
export function honeypotHtml(href: string): string {
  return `<a\nhref="${href}" style="display:none !important;font-size:0;line-height:0;max-height:0;color:transparent" aria-hidden="true" tabindex="-1"></a>`;
}
