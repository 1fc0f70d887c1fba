import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, needsRotation, parseKeyRing } from '../../../../src/lib/crypto/secret-box';
import { signToken, verifyToken } from '../../../../src/lib/crypto/signed-token';

const OLD = 'old:old-secret-old-secret-old-secret-0123456789';
const NEW = 'new:new-secret-new-secret-new-secret-0123456789';

describe('secrets at rest (AES-GCM, key ring)', () => {
  it('round-trips, with a random IV per value and the key id in front', async () => {
    const a = await encryptSecret(NEW, 'p@ssw0rd');
    const b = await encryptSecret(NEW, 'p@ssw0rd');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1.new.')).toBe(true);
    expect(a).not.toContain('p@ssw0rd');
    expect(await decryptSecret(NEW, a)).toBe('p@ssw0rd');
  });

  it('decrypts values of an older key while a newer one encrypts (rotation)', async () => {
    const old = await encryptSecret(OLD, 'token-1');
    const ring = `${NEW},${OLD}`;
    expect(await decryptSecret(ring, old)).toBe('token-1');
    expect(needsRotation(ring, old)).toBe(true);
    const fresh = await encryptSecret(ring, 'token-1');
    expect(fresh.split('.')[1]).toBe('new');
    expect(needsRotation(ring, fresh)).toBe(false);
    await expect(decryptSecret(NEW, old)).rejects.toThrow(/key "old"/);
  });

  it('refuses an altered value and a wrong key with the same id', async () => {
    const value = await encryptSecret(NEW, 'secret');
    const parts = value.split('.');
    const last = parts[3];
    parts[3] = (last[0] === 'A' ? 'B' : 'A') + last.slice(1);
    await expect(decryptSecret(NEW, parts.join('.'))).rejects.toThrow();
    await expect(decryptSecret('new:another-secret-another-secret-0123456789', value)).rejects.toThrow();
    await expect(decryptSecret(NEW, 'not-a-secret')).rejects.toThrow(/unknown format/);
  });

  it('requires a key ring with long enough secrets', () => {
    expect(() => parseKeyRing(undefined)).toThrow(/SECRETS_KEY/);
    expect(() => parseKeyRing('k:short')).toThrow(/32 characters/);
    expect(parseKeyRing('0123456789abcdef0123456789abcdef')[0].id).toBe('k0');
  });
});

describe('signed tokens', () => {
  it('verify only with the purpose and key they were signed with', async () => {
    const token = await signToken(NEW, 'unsubscribe', { o: 1, c: 2 });
    expect(await verifyToken(`${NEW},${OLD}`, 'unsubscribe', token)).toMatchObject({ o: 1, c: 2, k: 'new' });
    expect(await verifyToken(NEW, 'other-purpose', token)).toBeNull();
    expect(await verifyToken(OLD, 'unsubscribe', token)).toBeNull();
    const [body, sig] = token.split('.');
    const forged = btoa(JSON.stringify({ o: 9, c: 2, k: 'new' }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_');
    expect(await verifyToken(NEW, 'unsubscribe', `${forged}.${sig}`)).toBeNull();
    expect(await verifyToken(NEW, 'unsubscribe', `${body}`)).toBeNull();
    expect(await verifyToken(NEW, 'unsubscribe', 'garbage.garbage')).toBeNull();
  });
});
