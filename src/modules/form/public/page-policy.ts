import { PAGE_STYLE } from './render';

// The headers of the pages this module renders: a policy of their own, stricter than the console's (set here, so the
// app's security middleware leaves them as they are). Nothing loads but the one inline stylesheet (by its hash) and,
// only when Turnstile is configured, its script and frame; forms post to this host only, and to the form's redirect
// origin (browsers apply form-action to the redirect after a post); no framing, no referrer to another site (the
// confirmation URL carries its token), never cached (the pages answer one person's post).

let styleHash: Promise<string> | null = null;

function hashOfStyle(): Promise<string> {
  styleHash ??= crypto.subtle.digest('SHA-256', new TextEncoder().encode(PAGE_STYLE)).then((digest) => {
    let binary = '';
    for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
    return `'sha256-${btoa(binary)}'`;
  });
  return styleHash;
}

export interface PolicyOptions {
  /** The Turnstile script's origin, when the widget is on the page. */
  turnstileOrigin?: string | null;
  /** Where a successful post may be redirected (the form's redirect URL's origin). */
  redirectOrigin?: string | null;
}

/** The headers of one page. */
export async function pageHeaders(options: PolicyOptions = {}): Promise<Record<string, string>> {
  const style = await hashOfStyle();
  const turnstile = options.turnstileOrigin ?? null;
  const policy = [
    "default-src 'none'",
    `style-src ${style}`,
    ...(turnstile ? [`script-src ${turnstile}`, `frame-src ${turnstile}`, `connect-src ${turnstile}`] : []),
    `form-action 'self'${options.redirectOrigin ? ` ${options.redirectOrigin}` : ''}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    // Not no-referrer: under it a browser posts this page's own forms with `Origin: null`, which the Origin check refuses.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}
