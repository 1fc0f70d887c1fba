import { describe, expect, it, vi } from 'vitest';
import { compareVersions } from '../../web/src/lib/semver';
import { memoryStorage } from '../../web/src/lib/storage';
import { checkVersion } from '../../web/src/lib/version-check';

describe('semver compare', () => {
  it('compares numerically, not as text', () => {
    expect(compareVersions('1.10.0', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('2.0.0', '10.0.0')).toBeLessThan(0);
    expect(compareVersions('1.2.3', '1.2.3')).toBe(0);
    expect(compareVersions('v1.2', '1.2.0')).toBe(0);
    expect(compareVersions('1.0.0', '1.0.0-rc.1')).toBeGreaterThan(0);
  });
});

describe('version check', () => {
  const deps = (storage = memoryStorage()) => ({
    storage,
    reload: vi.fn(),
    currentUrl: () => 'https://acme.example.com/tag?search=a#x',
    now: () => 1700000000000,
  });

  it('only stores the version when none is stored', () => {
    const d = deps();
    expect(checkVersion('1.0.0', d)).toBe(false);
    expect(d.storage.getItem('version')).toBe('1.0.0');
    expect(d.reload).not.toHaveBeenCalled();
  });

  it('stores a higher server version and reloads with cbstr=<timestamp>', () => {
    const d = deps();
    d.storage.setItem('version', '1.9.0');
    expect(checkVersion('1.10.0', d)).toBe(true);
    expect(d.storage.getItem('version')).toBe('1.10.0');
    expect(d.reload).toHaveBeenCalledWith('https://acme.example.com/tag?search=a&cbstr=1700000000000#x');
  });

  it('does nothing for an equal or lower server version, or no header', () => {
    const d = deps();
    d.storage.setItem('version', '2.0.0');
    expect(checkVersion('2.0.0', d)).toBe(false);
    expect(checkVersion('1.5.0', d)).toBe(false);
    expect(checkVersion(null, d)).toBe(false);
    expect(d.storage.getItem('version')).toBe('2.0.0');
    expect(d.reload).not.toHaveBeenCalled();
  });
});
