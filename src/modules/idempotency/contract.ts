import { z } from 'zod';

// The Idempotency-Key contract (IETF httpapi Idempotency-Key draft, as Stripe uses it): the headers, the key's rule
// and the three refusals, in one place for the wrapper (request-side.ts) and the API description (openapi.ts).

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer replayed from a key's first call. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1 to 255 printable ASCII characters (space to tilde). */
const KEY_RULE = /^[\x20-\x7e]{1,255}$/;
/** The draft's form, a structured-field string: the key in double quotes, `\"` and `\\` escaped. */
const QUOTED = /^"((?:[^"\\]|\\["\\])*)"$/;

export const idempotencyKeySchema = z
  .string()
  .regex(KEY_RULE)
  .describe(
    "A key you choose per operation (e.g. a UUID), 1 to 255 printable ASCII characters, bare or in double quotes. A retry with the same key and the same request within 24 hours gets the first call's answer again (with `Idempotent-Replayed: true`) and nothing is done twice. Keys are kept per caller and path.",
  );

/** The key a header value names, or null when the value breaks the rule (a 400). A quoted value is unquoted first. */
export function parseIdempotencyKey(value: string): string | null {
  const quoted = QUOTED.exec(value);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : value;
  return KEY_RULE.test(key) ? key : null;
}

/** The refusals, with their status, code and message. */
export const IDEMPOTENCY_ERRORS = {
  invalid: {
    status: 400,
    code: 'invalid_idempotency_key',
    message: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters',
  },
  inFlight: {
    status: 409,
    code: 'idempotency_in_flight',
    message: 'A request with this Idempotency-Key is still being processed: retry once it has finished',
  },
  reused: {
    status: 422,
    code: 'idempotency_key_reused',
    message: 'This Idempotency-Key was already used for a different request: use a new key for a new request',
  },
} as const;
