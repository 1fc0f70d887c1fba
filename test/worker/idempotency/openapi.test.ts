// The Idempotency-Key contract in the API description: an operation marked `idempotent: true` (as the send routes
// will be) lists the optional header, the replay header on its success answer and the three refusals; others do not.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operationObject } from '../../../src/modules/api-docs/openapi-document';
import type { ApiOperation } from '../../../src/modules/api-docs/operations';
import { idempotencyKeySchema, parseIdempotencyKey } from '../../../src/modules/idempotency/contract';

type Operation = {
  parameters: { name: string; in: string; required: boolean; description?: string; schema: { type: string; pattern?: string } }[];
  responses: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, { example?: { error: { code: string } } }> }>;
};

const send: ApiOperation = { method: 'post', path: '/send', tag: 'Send', summary: 'Send one message', body: z.object({ to: z.string() }), status: 202 };

describe('the Idempotency-Key contract in the API description', () => {
  it('adds the header, the replay header and the refusals to an idempotent operation', () => {
    const op = operationObject({ ...send, idempotent: true }) as Operation;
    const header = op.parameters.find((p) => p.name === 'Idempotency-Key');
    expect(header).toMatchObject({ in: 'header', required: false, schema: { type: 'string' } });
    expect(header?.description).toContain('24 hours');
    expect(new RegExp(header!.schema.pattern!).test('k'.repeat(255))).toBe(true);
    expect(new RegExp(header!.schema.pattern!).test('k'.repeat(256))).toBe(false);
    expect(op.responses['202'].headers).toHaveProperty('Idempotent-Replayed');
    const code = (status: string) => op.responses[status].content?.['application/json'].example?.error.code;
    expect([code('400'), code('409'), code('422')]).toEqual(['invalid_idempotency_key', 'idempotency_in_flight', 'idempotency_key_reused']);
    expect(op.responses['409'].headers).toHaveProperty('Retry-After');
    // 422 keeps saying what a validation failure is, too.
    expect(op.responses['422'].description).toContain('validation_failed');
  });

  it('leaves other operations as they were', () => {
    const op = operationObject(send) as Operation;
    expect(op.parameters.map((p) => p.name)).not.toContain('Idempotency-Key');
    expect(op.responses['202'].headers).toBeUndefined();
    expect(Object.keys(op.responses)).not.toContain('409');
  });

  it('describes the key with the rule the wrapper applies', () => {
    for (const key of ['k', 'k'.repeat(255), ' spaced ~ key '])
      expect([idempotencyKeySchema.safeParse(key).success, parseIdempotencyKey(key)]).toEqual([true, key]);
    for (const key of ['', 'k'.repeat(256), 'tab\there', 'ключ'])
      expect([idempotencyKeySchema.safeParse(key).success, parseIdempotencyKey(key)]).toEqual([false, null]);
    expect(parseIdempotencyKey('"quoted \\"key\\""')).toBe('quoted "key"');
  });
});
