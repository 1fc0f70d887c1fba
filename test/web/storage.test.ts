import { describe, expect, it } from 'vitest';
import { resolvePreferences } from '../../web/src/components/list/use-list-preferences';
import { listPreferencesKey, readListPreferences, writeListPreferences } from '../../web/src/lib/list-preferences';
import { clearStoredSession, memoryStorage, readSession, STORAGE_KEYS, writeSession } from '../../web/src/lib/storage';

describe('session storage keys', () => {
  it('uses accessToken, refreshToken, expiresAt, authTypeId, version, deviceId', () => {
    expect(STORAGE_KEYS).toMatchObject({
      accessToken: 'accessToken',
      refreshToken: 'refreshToken',
      expiresAt: 'expiresAt',
      authTypeId: 'authTypeId',
      version: 'version',
      deviceId: 'deviceId',
    });
  });

  it('writes, reads and clears the session in local storage', () => {
    writeSession(localStorage, { accessToken: 'a', refreshToken: 'r', expiresAt: '2030-01-01T00:00:00.000Z', authTypeId: 1 });
    expect(localStorage.getItem('accessToken')).toBe('a');
    expect(localStorage.getItem('refreshToken')).toBe('r');
    expect(localStorage.getItem('expiresAt')).toBe('2030-01-01T00:00:00.000Z');
    expect(localStorage.getItem('authTypeId')).toBe('1');
    expect(readSession(localStorage)).toEqual({ accessToken: 'a', refreshToken: 'r', expiresAt: '2030-01-01T00:00:00.000Z', authTypeId: 1 });
    clearStoredSession(localStorage);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(readSession(localStorage).authTypeId).toBeNull();
  });
});

describe('list preferences', () => {
  it('are keyed dataTable:{userId}:{orgId or _}:{listKey}', () => {
    expect(listPreferencesKey(5, 2, 'tag')).toBe('dataTable:5:2:tag');
    expect(listPreferencesKey(5, null, 'tag')).toBe('dataTable:5:_:tag');
    expect(listPreferencesKey(5, undefined, 'contact')).toBe('dataTable:5:_:contact');
  });

  it('round-trip search, itemsPerPage, sortBy and filter keys as JSON', () => {
    const storage = memoryStorage();
    const key = listPreferencesKey(1, 1, 'tag');
    writeListPreferences(storage, key, { search: 'vip', itemsPerPage: 25, sortBy: [{ key: 'name', order: 'desc' }], status: 'active' });
    expect(JSON.parse(storage.getItem('dataTable:1:1:tag')!)).toEqual({
      search: 'vip',
      itemsPerPage: 25,
      sortBy: [{ key: 'name', order: 'desc' }],
      status: 'active',
    });
    expect(readListPreferences(storage, key)).toEqual({ search: 'vip', itemsPerPage: 25, sortBy: [{ key: 'name', order: 'desc' }], status: 'active' });
  });

  it('read as empty when missing or corrupt', () => {
    const storage = memoryStorage();
    expect(readListPreferences(storage, 'dataTable:1:_:x')).toEqual({});
    storage.setItem('dataTable:1:_:x', '{oops');
    expect(readListPreferences(storage, 'dataTable:1:_:x')).toEqual({});
  });

  it('fall back to defaults for unknown page sizes or sort keys', () => {
    const defaults = { sortBy: { key: 'priority', order: 'asc' as const }, sortKeys: ['priority', 'name'] };
    expect(resolvePreferences({}, defaults)).toMatchObject({ search: '', itemsPerPage: 10, sortBy: [{ key: 'priority', order: 'asc' }] });
    expect(resolvePreferences({ itemsPerPage: 7, sortBy: [{ key: 'bogus', order: 'asc' }] }, defaults)).toMatchObject({
      itemsPerPage: 10,
      sortBy: [{ key: 'priority', order: 'asc' }],
    });
    expect(resolvePreferences({ itemsPerPage: 50, sortBy: [{ key: 'name', order: 'desc' }], search: 'x' }, defaults)).toMatchObject({
      itemsPerPage: 50,
      sortBy: [{ key: 'name', order: 'desc' }],
      search: 'x',
    });
  });
});
