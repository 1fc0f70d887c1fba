import { z } from 'zod';

// The pieces the API's answer shapes are built from (src/shared/contracts: tagSchema, contactSchema, ...). Each
// answer is one zod object: its TypeScript type is inferred from it (`type Tag = z.infer<typeof tagSchema>`) and
// the OpenAPI document describes it from the same object (src/modules/api-docs/answer-schemas.ts), so the type,
// the document and the test that parses real answers (test/worker/api-docs) cannot drift apart.

/** An answer object: every key it lists is present, and a key it does not list is an error when a test parses it. */
export const answer = <Shape extends z.ZodRawShape>(shape: Shape, description?: string) => {
  const schema = z.strictObject(shape);
  return description ? schema.describe(description) : schema;
};

/** A row id or a count: a whole number. */
export const whole = () => z.number().int();

/** A moment as the database stores it: ISO 8601 in UTC, e.g. 2026-11-26T10:06:33.000Z. */
export const moment = () => z.iso.datetime();

/** created_at and updated_at, which most rows carry. */
export const stampsShape = { created_at: moment(), updated_at: moment() };

/** A reference to another row by id and name (a contact's tags, a broadcast's subscription). */
export const namedRef = <Shape extends z.ZodRawShape = Record<never, never>>(extra: Shape = {} as Shape) => answer({ id: whole(), name: z.string(), ...extra });
