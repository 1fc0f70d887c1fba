import { zodJsonSchema, type Json } from '../api-docs/json-schema';
import { IDEMPOTENCY_ERRORS, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, idempotencyKeySchema } from './contract';

// The Idempotency-Key contract as OpenAPI 3.1 parts, for any operation wrapped in `idempotent` (request-side.ts): the
// API description adds them to an operation marked `idempotent: true` (api-docs/operations.ts).

/** The optional request header. */
export function idempotencyKeyParameter(): Json {
  const { description, ...schema } = zodJsonSchema(idempotencyKeySchema, 'input') as Json & { description?: string };
  return { name: IDEMPOTENCY_KEY_HEADER, in: 'header', required: false, description, schema };
}

/** The header a success answer carries when it is a replay of the key's first call. */
export function idempotentReplayedHeader(): Json {
  return {
    [IDEMPOTENT_REPLAYED_HEADER]: {
      description: 'Present (`true`) when this is the stored answer of an earlier call with the same Idempotency-Key: nothing was done again',
      schema: { type: 'string', const: 'true' },
    },
  };
}

type Refusal = (typeof IDEMPOTENCY_ERRORS)[keyof typeof IDEMPOTENCY_ERRORS];

/** An answer in the one error envelope (`errorSchema`: the document's), with the refusal's code as its example. */
const refusalAnswer = (description: string, errorSchema: Json, refusal: Refusal, headers?: Json): Json => ({
  description,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: errorSchema, example: { error: { code: refusal.code, message: refusal.message } } } },
});

/**
 * The three refusals by status, in the error envelope `errorSchema` (the document's own, e.g. a `$ref`). 422 is also
 * the status of a validation failure, so its description names both codes.
 */
export function idempotencyResponses(errorSchema: Json): Record<string, Json> {
  const { invalid, inFlight, reused } = IDEMPOTENCY_ERRORS;
  return {
    [invalid.status]: refusalAnswer(`\`${invalid.code}\`: ${invalid.message}`, errorSchema, invalid),
    [inFlight.status]: refusalAnswer(`\`${inFlight.code}\`: ${inFlight.message}`, errorSchema, inFlight, {
      'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
    }),
    [reused.status]: refusalAnswer(
      `\`validation_failed\`: some fields are filled incorrectly (error.fields has the messages per field); or \`${reused.code}\`: ${reused.message}`,
      errorSchema,
      reused,
    ),
  };
}
