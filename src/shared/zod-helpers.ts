import { z } from 'zod';
import { MESSAGES, atMostCharacters } from './messages';

// A missing value says 'This field is required' everywhere, server and console alike.
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return MESSAGES.required;
    if (issue.code === 'invalid_type' && issue.input === null) return MESSAGES.required;
    return undefined;
  },
});

/** Trimmed text that must not be empty. */
export function requiredText(max: number) {
  return z.string().trim().min(1, MESSAGES.required).max(max, atMostCharacters(max));
}

/** Optional text: empty becomes null. */
export function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, atMostCharacters(max))
    .nullish()
    .transform((v) => (v ? v : null));
}

/** A required email address: an empty one says only 'This field is required', not also that it is invalid. */
export function emailText() {
  return z.string().trim().min(1, { message: MESSAGES.required, abort: true }).email(MESSAGES.invalidEmail).max(254);
}

/** Turns zod issues into `{ field.path: [messages] }`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
