import { z } from 'zod';

// zod contracts as the JSON Schemas of the OpenAPI document: requests (operations.ts) and answers (answer-schemas.ts).

export type Json = Record<string, unknown>;

/**
 * A zod schema as JSON Schema: `input` for a request (what the client sends), `output` for an answer (what the
 * server stores and answers, defaults applied); parts zod cannot express become `{}`.
 */
export function zodJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', override: ({ jsonSchema }) => withoutNoise(jsonSchema) }) as Json;
  delete out.$schema;
  return out;
}

/**
 * What zod writes but a reader of the document does not need: the safe-integer bounds of every whole number, and
 * the long regular expression beside `format: date-time`, which says the same.
 */
function withoutNoise(schema: Json): void {
  if (schema.minimum === Number.MIN_SAFE_INTEGER) delete schema.minimum;
  if (schema.maximum === Number.MAX_SAFE_INTEGER) delete schema.maximum;
  if (schema.format === 'date-time') delete schema.pattern;
}
