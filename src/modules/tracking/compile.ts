import { decodeEntities, htmlToText } from '../../lib/mime/html-to-text';
import { linkMarker, MARKER, markerPattern, MARK_CHARACTERS, personalisedMarker } from './markers';

// Tracking compiled once per broadcast (when the runner freezes its content), not once per message. Workers'
// HTMLRewriter reads the template's html once: every web link's href becomes a marker naming the link's index
// (links in attributes, comments or scripts are never touched by mistake), the hidden honeypot link is marked at
// the start of the body and the open pixel at its end. The plain-text alternative is made from the same marked
// html, without the honeypot and the pixel, its links keeping their markers. A message is then the Liquid render
// of these two texts with the recipient's values, its markers replaced by its tracking URLs (assemble.ts): no
// html parse per message. The unsubscribe link, mailto:, tel: and anchors stay as they are.
//
// A link whose href holds a placeholder (`https://shop.example/?e={{ contact.email }}`) is marked with its href
// inside, so Liquid renders the recipient's own address into the marker (in a loop too) and the message signs it.

/** Bumped when the marked form changes: a snapshot compiled by an older version is compiled again when sent. */
export const COMPILED_VERSION = 1;

export interface TrackingOptions {
  opens: boolean;
  clicks: boolean;
}

export interface CompiledTracking {
  v: number;
  opens: boolean;
  clicks: boolean;
  /** The html with markers for each tracked link, the honeypot and the pixel. */
  html: string;
  /** The plain-text alternative made from it (links as markers, no honeypot, no pixel). */
  text: string;
  /** Link i's URL, or null when its href holds a placeholder (then it is signed per message, as rendered). */
  links: (string | null)[];
}

/** Web links only; everything else (mailto:, tel:, #anchors, javascript:) is left alone. */
export const isTrackable = (href: string) => /^https?:\/\//i.test(href);

const LIQUID = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/;
const UNSUBSCRIBE_PLACEHOLDER = /^\{\{-?\s*unsubscribe_url\s*-?\}\}$/;
/** A finished message's own unsubscribe link (a transactional category send's, a test message's): never a click. */
const UNSUBSCRIBE_LINK = /^https?:\/\/[^/?#]+\/unsubscribe\?m=/i;

/**
 * Marks the links of `html` for tracking. `liquid` says the html is a template (placeholders are rendered per
 * message); a message's finished html (a test message) is compiled with it off.
 */
export async function compileTracking(source: string, options: TrackingOptions, liquid: boolean): Promise<CompiledTracking> {
  const html = source.replace(MARK_CHARACTERS, '');
  const links: (string | null)[] = [];
  let sawBody = false;
  let rewriter = new HTMLRewriter();
  if (options.clicks) {
    rewriter = rewriter.on('a[href]', {
      element(a) {
        const raw = a.getAttribute('href') ?? '';
        const href = decodeEntities(raw).trim();
        if (liquid && LIQUID.test(href)) {
          if (UNSUBSCRIBE_PLACEHOLDER.test(href)) return;
          a.setAttribute('href', personalisedMarker(links.push(null) - 1, raw));
        } else if (isTrackable(href) && !UNSUBSCRIBE_LINK.test(href)) {
          a.setAttribute('href', linkMarker(links.push(href) - 1));
        }
      },
    });
  }
  rewriter = rewriter.on('body', {
    element(body) {
      sawBody = true;
      if (options.clicks) body.prepend(MARKER.honeypot, { html: true });
      if (options.opens) body.append(MARKER.pixel, { html: true });
    },
  });
  const tracking = options.opens || options.clicks;
  let marked = tracking ? await rewriter.transform(new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })).text() : html;
  // A fragment without <body>: the honeypot first and the pixel last, around it.
  if (!sawBody) marked = `${options.clicks ? MARKER.honeypot : ''}${marked}${options.opens ? MARKER.pixel : ''}`;
  return { v: COMPILED_VERSION, opens: options.opens, clicks: options.clicks, html: onOwnLines(marked), text: plainTextOf(marked, liquid), links };
}

/**
 * Starts each tracked href on a new line inside its tag (`<a` newline `href="...`), where a line break is only
 * the whitespace between attributes and renders exactly as before. A tracked URL is a hundred characters longer
 * than the link, so html written on one line would pass SMTP's 998-character line limit and go quoted-printable
 * (slower to make, larger to send); this keeps it 7-bit.
 */
function onOwnLines(marked: string): string {
  return marked.replace(/[ \t\r\n]+href="\u0001/g, '\nhref="\u0001');
}

/**
 * The text alternative of marked html: what a person reads, so no honeypot and no pixel. Markers and (in a
 * template) Liquid tags are held aside while the html becomes text, so neither is read as html or has its
 * entities decoded, and a link whose href is a marker or a placeholder keeps its address in the text.
 */
function plainTextOf(marked: string, liquid: boolean): string {
  const held: string[] = [];
  const hold = (text: string) => `\u0004${held.push(text) - 1}\u0005`;
  let source = marked.split(MARKER.honeypot).join('').split(MARKER.pixel).join('').replace(markerPattern(), hold);
  if (liquid) source = source.replace(new RegExp(LIQUID.source, 'g'), hold);
  const text = htmlToText(source, { isLink: (href) => href.startsWith('\u0004') });
  return text.replace(/\u0004(\d+)\u0005/g, (_m, n: string) => held[Number(n)]);
}
