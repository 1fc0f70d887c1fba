import { decodeEntities } from '../../lib/mime/html-to-text';
import type { CompiledTracking } from './compile';
import { isTrackable } from './compile';
import { honeypotHtml, markerPattern, pixelHtml } from './markers';
import { clickToken, linkToken, TRACKING_PATHS } from './tokens';

// A tracked message put together from its rendered html and text (compile.ts's marks, the recipient's Liquid
// values filled in) and its tokens: each mark becomes the message's tracking URL by string replacement. A
// message's only signature is its own token (made before rendering, as its unsubscribe link needs it), plus one
// per personalised link; the link tokens are signed once for the whole broadcast (signLinks).

type Keys = { SECRETS_KEY: string };

/** The link tokens of a compiled html, signed once for a broadcast (or for one message sent on its own). */
export interface SignedLinks {
  /** Link i's token, null for a personalised link. */
  links: (string | null)[];
  honeypot: string | null;
}

/** Who the links belong to: a broadcast, or one message that has none. */
export interface LinkScope {
  broadcastId: number | null;
  messageId: number | null;
  /** The organisation's origin, where the honeypot leads. */
  origin: string;
}

/** Signs every fixed link of a compiled html and its honeypot, in parallel. */
export async function signLinks(env: Keys, compiled: CompiledTracking, scope: LinkScope): Promise<SignedLinks> {
  const ref = { broadcastId: scope.broadcastId, messageId: scope.messageId };
  const [honeypot, ...links] = await Promise.all([
    compiled.clicks ? linkToken(env, { ...ref, linkIndex: -1, url: `${scope.origin}/`, honeypot: true }) : null,
    ...compiled.links.map((url, linkIndex) => (url === null ? null : linkToken(env, { ...ref, linkIndex, url, honeypot: false }))),
  ]);
  return { honeypot, links };
}

/** One message's side of the assembly. */
export interface MessageTracking {
  orgId: number;
  messageId: number;
  origin: string;
  /** The message token (src/lib/templating/unsubscribe-link.ts). */
  token: string;
  /** The message's unsubscribe URL: a personalised link that renders to it is left as it is. */
  unsubscribeUrl: string | null;
  signed: SignedLinks;
}

/** The rendered html and text of a message with every mark replaced by its tracking URL (or, untracked, its href). */
export async function assembleTracking(env: Keys, rendered: { html: string; text: string }, m: MessageTracking): Promise<{ html: string; text: string }> {
  const personal = await signPersonalLinks(env, rendered.html + rendered.text, m);
  const click = (token: string) => `${m.origin}${TRACKING_PATHS.click}${m.token}/${token}`;
  const urlOf = (kind: string, index: string, href: string | undefined, inHtml: boolean): string => {
    if (kind === 'L') return click(m.signed.links[Number(index)] ?? '');
    if (kind === 'P') return personal.get(personalKey(index, href!)) ?? (inHtml ? href! : decodeEntities(href!));
    if (!inHtml) return '';
    if (kind === 'H') return m.signed.honeypot ? honeypotHtml(click(m.signed.honeypot)) : '';
    return pixelHtml(`${m.origin}${TRACKING_PATHS.open}${m.token}`);
  };
  return {
    html: rendered.html.replace(markerPattern(), (_m, kind: string, index: string, href?: string) => urlOf(kind, index, href, true)),
    text: rendered.text.replace(markerPattern(), (_m, kind: string, index: string, href?: string) => urlOf(kind, index, href, false)),
  };
}

const personalKey = (index: string, href: string) => `${index}\u0000${href}`;

/** The tracked URL of each personalised link in `rendered` that renders to a web address (one signature each). */
async function signPersonalLinks(env: Keys, rendered: string, m: MessageTracking): Promise<Map<string, string>> {
  if (!m.signed.links.includes(null)) return new Map();
  const wanted = new Map<string, { index: number; url: string }>();
  for (const [, kind, index, href] of rendered.matchAll(markerPattern())) {
    if (kind !== 'P' || href === undefined) continue;
    const url = decodeEntities(href).trim();
    if (isTrackable(url) && url !== m.unsubscribeUrl) wanted.set(personalKey(index, href), { index: Number(index), url });
  }
  const signed = new Map<string, string>();
  await Promise.all(
    [...wanted].map(async ([key, { index, url }]) => {
      const token = await clickToken(env, { orgId: m.orgId, messageId: m.messageId, linkIndex: index, url, honeypot: false });
      signed.set(key, `${m.origin}${TRACKING_PATHS.click}${token}`);
    }),
  );
  return signed;
}
