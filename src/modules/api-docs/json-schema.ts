import { z } from 'zod';

// The pieces every JSON Schema of the OpenAPI document is built from: the document itself (requests), the entity
// answers (entity-schemas.ts) and the answers written as TypeScript interfaces (answer-schemas.ts).

export type Json = Record<string, unknown>;

export const int = { type: 'integer' };
export const num = { type: 'number' };
export const str = { type: 'string' };
export const bool = { type: 'boolean' };
export const time = { type: 'string', format: 'date-time' };

/**
 * A zod schema as JSON Schema: `input` for a request (what the client sends), `output` for an answer (what the
 * server stores and answers, defaults applied); parts zod cannot express become `{}`.
 */
export function zodJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}
