import type { Env } from '../../../env';

// Cloudflare Turnstile's server side: a token the widget produced is checked once with siteverify (a token passes
// once: a reused one comes back `success: false` with `timeout-or-duplicate`). The address is TURNSTILE_VERIFY_URL
// (locally and in tests a stand-in), Cloudflare's by default.

export const DEFAULT_VERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';
export const DEFAULT_SCRIPT_URL = 'https://challenges.cloudflare.com/turnstile/v0/api.js';

/** A token longer than this is no token of Turnstile's (they are about 2 KB at most). */
const MAX_TOKEN_LENGTH = 4096;
const VERIFY_TIMEOUT_MS = 5_000;
/** Asks of one token: the first, and one more when its answer was lost. */
const ATTEMPTS = 2;

export type TokenVerdict = 'passed' | 'refused' | 'unavailable';

/** Whether the hosted page shows the widget: only with both keys set (a widget whose tokens cannot be checked is noise). */
export function turnstileEnabled(env: Pick<Env, 'TURNSTILE_SITE_KEY' | 'TURNSTILE_SECRET_KEY'>): boolean {
  return Boolean(env.TURNSTILE_SITE_KEY && env.TURNSTILE_SECRET_KEY);
}

/** The widget script's URL, and its origin for the page's Content-Security-Policy. */
export function turnstileScript(env: Pick<Env, 'TURNSTILE_SCRIPT_URL'>): { url: string; origin: string } {
  const url = env.TURNSTILE_SCRIPT_URL || DEFAULT_SCRIPT_URL;
  return { url, origin: new URL(url).origin };
}

/**
 * Asks siteverify about one token: passed, refused (invalid, expired, reused), or unavailable (no answer). A question
 * whose answer was lost (the connection dropped, a 5xx) is asked once more with the same idempotency key: siteverify
 * then repeats its first answer instead of calling the token spent, so a lost answer costs no sign-up.
 */
export async function verifyTurnstile(
  env: Pick<Env, 'TURNSTILE_SECRET_KEY' | 'TURNSTILE_VERIFY_URL'>,
  token: string,
  remoteIp: string | null,
): Promise<TokenVerdict> {
  if (!env.TURNSTILE_SECRET_KEY) return 'unavailable';
  if (token.length > MAX_TOKEN_LENGTH) return 'refused';
  const question = JSON.stringify({
    secret: env.TURNSTILE_SECRET_KEY,
    response: token,
    idempotency_key: crypto.randomUUID(),
    ...(remoteIp ? { remoteip: remoteIp } : {}),
  });
  const deadline = AbortSignal.timeout(VERIFY_TIMEOUT_MS);
  let lost = '';
  for (let attempt = 1; attempt <= ATTEMPTS && !deadline.aborted; attempt++) {
    try {
      const res = await fetch(env.TURNSTILE_VERIFY_URL || DEFAULT_VERIFY_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: question,
        signal: deadline,
      });
      if (res.ok) {
        const answer = (await res.json()) as { success?: unknown };
        return answer.success === true ? 'passed' : 'refused';
      }
      lost = `status ${res.status}`;
      if (res.status < 500) break;
    } catch (error) {
      lost = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  }
  // Logged: the sign-up then takes the tokenless path, and an operator should see why.
  console.warn(JSON.stringify({ event: 'siteverify_unavailable', reason: lost }));
  return 'unavailable';
}
