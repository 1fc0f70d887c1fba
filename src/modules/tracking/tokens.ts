import { signCompact, signToken, verifyCompact, verifyToken } from '../../lib/crypto/signed-token';
import { fromBase64Url, toBase64Url } from '../../lib/crypto/secret-box';
import { fromBase36, readUnsubscribeToken } from '../../lib/templating/unsubscribe-link';

// The tracking links in a sent email, all verified with no database read:
// - /t/o/<message token>: the open pixel. The message token is the one the unsubscribe link carries
//   (src/lib/templating/unsubscribe-link.ts), signed once per message.
// - /t/c/<message token>/<link token>: a click. The link token (compact: `<b|m><id base 36>.<index, h for the
//   honeypot>.<URL, base64url>.<key id>.<tag>`) names the link's position and URL and the broadcast it belongs to
//   (or, for a message sent on its own, the message), signed once per broadcast; the
//   click counts only when both tokens are ours and name the same broadcast (or message). So a message costs one
//   signature however many links it has, the redirect only ever goes to a URL we wrote into that broadcast, and
//   a link token moved onto another broadcast's message is refused.
// - /t/c/<click token>: a link whose address is personalised (a placeholder in its href), signed per message
//   with its URL; also the form of every click link sent before the link tokens existed.
// The hidden honeypot link is a link token with h:1.

const PURPOSE = 'tracking';
const LINK_PURPOSE = 'tracking-link';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface OpenRef {
  orgId: number;
  messageId: number;
}

export interface ClickRef extends OpenRef {
  linkIndex: number;
  url: string;
  honeypot: boolean;
}

/** A link of a broadcast (or of one message sent on its own), as its link token names it. */
export interface LinkRef {
  /** Exactly one of the two: the broadcast the link belongs to, or the message when it has no broadcast. */
  broadcastId: number | null;
  messageId: number | null;
  linkIndex: number;
  url: string;
  honeypot: boolean;
}

export const TRACKING_PATHS = { open: '/t/o/', click: '/t/c/' } as const;

type Keys = { SECRETS_KEY: string };

const positiveId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
/** Only web addresses are ever signed; anything else in a token is not ours to follow. */
const isWebUrl = (v: unknown): v is string => typeof v === 'string' && /^https?:\/\//i.test(v);

/** The token of a click on a personalised link: signed per message, with the URL that recipient got. */
export async function clickToken(env: Keys, ref: ClickRef): Promise<string> {
  return signToken(env.SECRETS_KEY, PURPOSE, { t: 'c', o: ref.orgId, m: ref.messageId, l: ref.linkIndex, u: ref.url, ...(ref.honeypot ? { h: 1 } : {}) });
}

/** The token of one link of a broadcast (or of a message on its own), signed once for all its recipients. */
export async function linkToken(env: Keys, ref: LinkRef): Promise<string> {
  const scope = ref.broadcastId ? `b${ref.broadcastId.toString(36)}` : `m${(ref.messageId ?? 0).toString(36)}`;
  return signCompact(env.SECRETS_KEY, LINK_PURPOSE, [scope, ref.honeypot ? 'h' : String(ref.linkIndex), toBase64Url(encoder.encode(ref.url))]);
}

/** The pixel token of mails sent before message tokens (Nov 2026); still read, no longer made by the sending path. */
export async function openToken(env: Keys, ref: OpenRef): Promise<string> {
  return signToken(env.SECRETS_KEY, PURPOSE, { t: 'o', o: ref.orgId, m: ref.messageId });
}

/** The message a pixel names: a message token, or an open token of a mail sent before message tokens. */
export async function readOpenToken(env: Keys, token: string): Promise<OpenRef | null> {
  const message = await readUnsubscribeToken(env, token);
  if (message?.messageId) return { orgId: message.orgId, messageId: message.messageId };
  const p = await verifyToken(env.SECRETS_KEY, PURPOSE, token);
  if (p?.t !== 'o' || !positiveId(p.o) || !positiveId(p.m)) return null;
  return { orgId: p.o, messageId: p.m };
}

/** A click on a personalised link (or any link of a mail sent before link tokens). */
export async function readClickToken(env: Keys, token: string): Promise<ClickRef | null> {
  const p = await verifyToken(env.SECRETS_KEY, PURPOSE, token);
  if (p?.t !== 'c' || !positiveId(p.o) || !positiveId(p.m) || typeof p.l !== 'number' || !Number.isSafeInteger(p.l) || !isWebUrl(p.u)) return null;
  return { orgId: p.o, messageId: p.m, linkIndex: p.l, url: p.u, honeypot: p.h === 1 };
}

/** A click on a link of a broadcast: both tokens ours, and the link of the message's own broadcast (or message). */
export async function readLinkClick(env: Keys, messageTokenText: string, linkTokenText: string): Promise<ClickRef | null> {
  const [message, link] = await Promise.all([readUnsubscribeToken(env, messageTokenText), verifyCompact(env.SECRETS_KEY, LINK_PURPOSE, linkTokenText, 3)]);
  if (!message?.messageId || !link) return null;
  const [scope, index, encodedUrl] = link;
  const owner = fromBase36(scope.slice(1));
  const sameScope = scope[0] === 'b' ? owner === message.broadcastId : scope[0] === 'm' && owner === message.messageId;
  const linkIndex = index === 'h' ? -1 : /^\d{1,6}$/.test(index) ? Number(index) : null;
  if (!sameScope || linkIndex === null) return null;
  let url: string;
  try {
    url = decoder.decode(fromBase64Url(encodedUrl));
  } catch {
    return null;
  }
  if (!isWebUrl(url)) return null;
  return { orgId: message.orgId, messageId: message.messageId, linkIndex, url, honeypot: index === 'h' };
}
