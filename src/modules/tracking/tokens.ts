import { signToken, verifyToken } from '../../lib/crypto/signed-token';

// The tracking links in a sent email: /t/o/<token> (the open pixel) and /t/c/<token> (a click redirect). A token
// names the organisation, the message and, for a click, the link's position and its URL, signed with a key
// derived from SECRETS_KEY: the redirect needs no database read, and can only ever go to a URL we wrote into
// that message. The hidden honeypot link carries h:1.

const PURPOSE = 'tracking';

export interface OpenRef {
  orgId: number;
  messageId: number;
}

export interface ClickRef extends OpenRef {
  linkIndex: number;
  url: string;
  honeypot: boolean;
}

export const TRACKING_PATHS = { open: '/t/o/', click: '/t/c/' } as const;

type Keys = { SECRETS_KEY: string };

export async function openToken(env: Keys, ref: OpenRef): Promise<string> {
  return signToken(env.SECRETS_KEY, PURPOSE, { t: 'o', o: ref.orgId, m: ref.messageId });
}

export async function clickToken(env: Keys, ref: ClickRef): Promise<string> {
  return signToken(env.SECRETS_KEY, PURPOSE, { t: 'c', o: ref.orgId, m: ref.messageId, l: ref.linkIndex, u: ref.url, ...(ref.honeypot ? { h: 1 } : {}) });
}

const positiveId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

export async function readOpenToken(env: Keys, token: string): Promise<OpenRef | null> {
  const p = await verifyToken(env.SECRETS_KEY, PURPOSE, token);
  if (!p || p.t !== 'o' || !positiveId(p.o) || !positiveId(p.m)) return null;
  return { orgId: p.o, messageId: p.m };
}

export async function readClickToken(env: Keys, token: string): Promise<ClickRef | null> {
  const p = await verifyToken(env.SECRETS_KEY, PURPOSE, token);
  if (!p || p.t !== 'c' || !positiveId(p.o) || !positiveId(p.m) || typeof p.l !== 'number' || !Number.isSafeInteger(p.l) || typeof p.u !== 'string') return null;
  // Only web addresses were ever signed; anything else in a token is not ours to follow.
  if (!/^https?:\/\//i.test(p.u)) return null;
  return { orgId: p.o, messageId: p.m, linkIndex: p.l, url: p.u, honeypot: p.h === 1 };
}
