// The SMTP server's own id for an accepted message, read from its final reply (src/lib/smtp/provider-id.ts).
import { describe, expect, it } from 'vitest';
import { providerIdOf } from '../../../../src/lib/smtp/provider-id';

const reply = (text: string) => ({ lines: [text] });

describe('the provider id in a 250 reply', () => {
  it.each([
    ['2.0.0 Ok: queued as 4ZB9Kq3XyzV', '4ZB9Kq3XyzV'],
    ['Ok: queued as abcDEF123', 'abcDEF123'],
    ['OK id=1tA2bC-000Abc-Ef', '1tA2bC-000Abc-Ef'],
    ['Ok 0100018c5d2e7f1a-6b2c4f4e-1d2a-4c1e-9f3a-123456789abc-000000', '0100018c5d2e7f1a-6b2c4f4e-1d2a-4c1e-9f3a-123456789abc-000000'],
    ['2.0.0 4AQE1x8K012345 Message accepted for delivery', '4AQE1x8K012345'],
    ['2.0.0 OK  1732600000 a640c23a62f3a-aa5b9d6c1e2si123456 - gsmtp', 'a640c23a62f3a-aa5b9d6c1e2si123456'],
    ['Ok: queued as 1f3a9c2e', '1f3a9c2e'],
  ])('reads %j as %j', (text, id) => {
    expect(providerIdOf(reply(text))).toBe(id);
  });

  it('answers nothing for a reply that names no id', () => {
    for (const text of ['OK: message queued', 'Great success', '2.0.0 Ok', '', 'OK id=x']) expect(providerIdOf(reply(text))).toBeNull();
    expect(providerIdOf(null)).toBeNull();
  });
});
