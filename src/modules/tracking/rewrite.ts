import { clickToken, openToken, TRACKING_PATHS } from './tokens';

// Adds tracking to an email's html as it is sent: every web link becomes a click redirect (not the unsubscribe
// link, mailto:, tel: or in-page anchors), a hidden honeypot link opens the body (no person clicks what they
// cannot see; scanners follow every href), and a 1x1 pixel closes it. Workers' HTMLRewriter parses the html,
// so links in attributes, comments or scripts are never touched by mistake. The stored message keeps the
// html without tracking: viewing it in the console counts nothing.

export interface TrackingOptions {
  opens: boolean;
  clicks: boolean;
}

export interface TrackingTarget {
  /** https://{org}.{host}: where /t/ is served for this organisation. */
  origin: string;
  orgId: number;
  messageId: number;
  /** The recipient's unsubscribe URL: left as it is. */
  unsubscribeUrl: string | null;
}

type Keys = { SECRETS_KEY: string };

/** Web links only; everything else (mailto:, tel:, #anchors, javascript:) is left alone. */
const isTrackable = (href: string) => /^https?:\/\//i.test(href);

/** An attribute's text as the browser would read it (the rewriter hands it over as written: `&amp;` and all). */
export function decodeAttribute(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' } as Record<string, string>)[lower] ?? whole;
  });
}

function pixelHtml(src: string): string {
  return `<img src="${src}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;overflow:hidden" />`;
}

function honeypotHtml(href: string): string {
  return `<a href="${href}" style="display:none !important;font-size:0;line-height:0;max-height:0;color:transparent" aria-hidden="true" tabindex="-1"></a>`;
}

/** The html with tracking added as `options` asks; unchanged when both are off. */
export async function addTracking(env: Keys, html: string, target: TrackingTarget, options: TrackingOptions): Promise<string> {
  if (!options.opens && !options.clicks) return html;
  const ref = { orgId: target.orgId, messageId: target.messageId };
  let linkIndex = 0;
  let sawBody = false;
  const honeypot = options.clicks
    ? `${target.origin}${TRACKING_PATHS.click}${await clickToken(env, { ...ref, linkIndex: -1, url: `${target.origin}/`, honeypot: true })}`
    : null;
  const pixel = options.opens ? `${target.origin}${TRACKING_PATHS.open}${await openToken(env, ref)}` : null;

  let rewriter = new HTMLRewriter();
  if (options.clicks) {
    rewriter = rewriter.on('a[href]', {
      async element(a) {
        const href = decodeAttribute(a.getAttribute('href') ?? '').trim();
        if (!isTrackable(href) || href === target.unsubscribeUrl) return;
        const token = await clickToken(env, { ...ref, linkIndex: linkIndex++, url: href, honeypot: false });
        a.setAttribute('href', `${target.origin}${TRACKING_PATHS.click}${token}`);
      },
    });
  }
  rewriter = rewriter.on('body', {
    element(body) {
      sawBody = true;
      if (honeypot) body.prepend(honeypotHtml(honeypot), { html: true });
      if (pixel) body.append(pixelHtml(pixel), { html: true });
    },
  });
  // A fragment without <body>: the honeypot first and the pixel last, around it.
  rewriter = rewriter.onDocument({
    end(end) {
      if (!sawBody && pixel) end.append(pixelHtml(pixel), { html: true });
    },
  });
  const out = await rewriter.transform(new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })).text();
  return !sawBody && honeypot ? honeypotHtml(honeypot) + out : out;
}
