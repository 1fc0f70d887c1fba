import { describe, expect, it } from 'vitest';
import { ADDRESS_MESSAGES, addressError, isAddressType, normalizeAddress } from '../../../src/shared/address';

describe('address rules shared with the console and the importer', () => {
  it('normalises e-mail to trimmed lower case and phones to trimmed text', () => {
    expect(normalizeAddress('email', '  Ann@Example.COM ')).toBe('ann@example.com');
    expect(normalizeAddress('phone', ' +15550100 ')).toBe('+15550100');
  });

  it('accepts phones as + and 3 to 15 digits (short codes included)', () => {
    for (const ok of ['+123', '+15550100', '+123456789012345', ' +4412345 ']) expect(addressError('phone', ok), ok).toBeNull();
    for (const bad of ['123', '+12', '+1234567890123456', '+1 555', '+1-555', '+1555a', '00441234', '+']) {
      expect(addressError('phone', bad), bad).toBe(ADDRESS_MESSAGES.invalidPhone);
    }
  });

  it('accepts valid e-mail addresses and names the empty value as required', () => {
    for (const ok of ['a@b.co', 'First.Last+tag@sub.example.org']) expect(addressError('email', ok), ok).toBeNull();
    for (const bad of ['a@b', 'a b@c.io', '@c.io', 'a@', `${'x'.repeat(250)}@c.io`]) {
      expect(addressError('email', bad), bad).toBe('Invalid email address. Please enter a valid email');
    }
    expect(addressError('email', '  ')).toBe('This field is required');
    expect(addressError('phone', '')).toBe('This field is required');
  });

  it('knows the address types', () => {
    expect(isAddressType('email')).toBe(true);
    expect(isAddressType('phone')).toBe(true);
    expect(isAddressType('fax')).toBe(false);
    expect(isAddressType(undefined)).toBe(false);
  });
});
