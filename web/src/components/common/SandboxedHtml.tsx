import type { CSSProperties } from 'react';

const FRAME_STYLE: CSSProperties = {
  width: '100%',
  minHeight: 420,
  border: '1px solid var(--mantine-color-default-border)',
  borderRadius: 8,
  background: 'white',
};

/**
 * The frame's own policy, on top of the console's (which a srcdoc frame inherits): no script of any kind, no
 * plugins, no forms; images, styles and fonts as emails use them.
 */
export const FRAME_POLICY =
  "default-src 'none'; script-src 'none'; object-src 'none'; form-action 'none'; img-src https: data: blob:; style-src 'unsafe-inline' https:; font-src https: data:";

/**
 * The frame's sandbox: no scripts, no same origin, no forms; a link may open a new tab (outside the sandbox, so the
 * page it opens works), never navigate the frame, where the console's and the tracking pages refuse to be shown.
 */
export const FRAME_SANDBOX = 'allow-popups allow-popups-to-escape-sandbox';

/**
 * The email html with the frame policy and a `<base target="_blank">` (every link opens a new tab) in its head: after
 * <head> when there is one, else after the doctype (the parser then opens the head for it), else first. A doctype
 * must stay first or the email renders in quirks mode.
 */
export function framedDocument(html: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${FRAME_POLICY}"><base target="_blank">`;
  const anchor = /<head(\s[^>]*)?>/i.exec(html) ?? /^\s*<!doctype[^>]*>/i.exec(html);
  if (!anchor) return meta + html;
  const at = anchor.index + anchor[0].length;
  return html.slice(0, at) + meta + html.slice(at);
}

/** An email's html as the recipient would see it, in a sandboxed frame: no script runs, no same-origin access. */
export function SandboxedHtml({ html, title, testId }: { html: string; title: string; testId: string }) {
  return <iframe title={title} sandbox={FRAME_SANDBOX} srcDoc={framedDocument(html)} data-testid={testId} style={FRAME_STYLE} />;
}
