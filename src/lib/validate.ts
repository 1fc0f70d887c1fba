import { zValidator } from '@hono/zod-validator';
import type { Context, MiddlewareHandler, ValidationTargets } from 'hono';
import { validator as honoValidator } from 'hono/validator';
import type { z } from 'zod';
import { fieldErrors } from '../shared/zod-helpers';
import { ApiError, validationFailed } from './api-error';

// Every input goes through zod; a failure is a 422 in the one error envelope with per-field messages.
function validator<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw validationFailed(fieldErrors(result.error as unknown as z.ZodError));
  });
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * Validates the JSON body (malformed JSON is a 400 raised by Hono and mapped in onError). A body that is not
 * declared as JSON is refused with 415 before anything runs: Hono would otherwise validate `{}` in its place,
 * and on a bulk delete `{}` means "everything".
 */
export function validJson<T extends z.ZodType>(schema: T) {
  const inner = validator('json', schema);
  const guarded: MiddlewareHandler = async (c, next) => {
    requireJsonType(c.req.header('content-type'));
    return inner(c, next);
  };
  return guarded as typeof inner;
}

/**
 * Validates the JSON body with a schema chosen per request (e.g. by a path segment): `parse` returns the zod
 * result; the 415 guard and the 422 shape are those of validJson.
 */
export function validJsonBy<T>(parse: (body: unknown, c: Context) => { success: true; data: T } | { success: false; error: z.ZodError }) {
  return honoValidator('json', (value, c) => {
    requireJsonType(c.req.header('content-type'));
    const parsed = parse(value, c);
    if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));
    return parsed.data;
  });
}

/** Refuses a body that is not declared as JSON (415); every JSON body route goes through this. */
export function requireJsonType(contentType: string | undefined): void {
  if (!JSON_TYPE.test(contentType ?? '')) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the body as JSON (Content-Type: application/json)');
  }
}

/** Validates the query string; repeated keys arrive as arrays. */
export const validQuery = <T extends z.ZodType>(schema: T) => validator('query', schema);

/** Reads a positive integer id from the path; anything else is simply not found. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
