import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { z } from 'zod';
import { fieldErrors } from '../shared/zod-helpers';
import { validationFailed } from './api-error';

// Every input goes through zod; a failure is a 422 in the one error envelope with per-field messages.
function validator<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw validationFailed(fieldErrors(result.error as unknown as z.ZodError));
  });
}

/** Validates the JSON body (malformed JSON is a 400 raised by Hono and mapped in onError). */
export const validJson = <T extends z.ZodType>(schema: T) => validator('json', schema);

/** Validates the query string; repeated keys arrive as arrays. */
export const validQuery = <T extends z.ZodType>(schema: T) => validator('query', schema);

/** Reads a positive integer id from the path; anything else is simply not found. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
