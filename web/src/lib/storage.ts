// Local-storage layout of the console (spec section 3, "Auth session" and "Saved list preferences").
export const STORAGE_KEYS = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  expiresAt: 'expiresAt',
  authTypeId: 'authTypeId',
  version: 'version',
  deviceId: 'deviceId',
  language: 'language',
} as const;

/** The part of Storage the console uses, so tests can pass any implementation. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The client session as kept in local storage. */
export interface StoredSession {
  accessToken: string | null;
  refreshToken: string | null;
  /** ISO time at which the access token expires. */
  expiresAt: string | null;
  authTypeId: number | null;
}

export const EMPTY_SESSION: StoredSession = { accessToken: null, refreshToken: null, expiresAt: null, authTypeId: null };

/** The browser's local storage, or an in-memory stand-in where it is unavailable (privacy modes). */
export function browserStorage(): KeyValueStorage {
  try {
    if (typeof localStorage !== 'undefined') return localStorage;
  } catch {
    // Access can throw when storage is blocked; fall through to memory.
  }
  return memoryStorage();
}

/** A storage kept in memory only. */
export function memoryStorage(): KeyValueStorage {
  const data = new Map<string, string>();
  return {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

/** Reads one value; a failing storage reads as empty. */
export function readItem(storage: KeyValueStorage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

/** Writes one value (null removes it); a failing storage is ignored rather than breaking the app. */
export function writeItem(storage: KeyValueStorage, key: string, value: string | null): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, value);
  } catch {
    // Quota or privacy errors: the value simply is not persisted.
  }
}

/** Restores the stored session at startup. */
export function readSession(storage: KeyValueStorage): StoredSession {
  const authType = readItem(storage, STORAGE_KEYS.authTypeId);
  const parsed = authType === null ? NaN : Number(authType);
  return {
    accessToken: readItem(storage, STORAGE_KEYS.accessToken),
    refreshToken: readItem(storage, STORAGE_KEYS.refreshToken),
    expiresAt: readItem(storage, STORAGE_KEYS.expiresAt),
    authTypeId: Number.isFinite(parsed) ? parsed : null,
  };
}

/** Persists the session (each key separately, as the spec names them). */
export function writeSession(storage: KeyValueStorage, session: StoredSession): void {
  writeItem(storage, STORAGE_KEYS.accessToken, session.accessToken);
  writeItem(storage, STORAGE_KEYS.refreshToken, session.refreshToken);
  writeItem(storage, STORAGE_KEYS.expiresAt, session.expiresAt);
  writeItem(storage, STORAGE_KEYS.authTypeId, session.authTypeId === null ? null : String(session.authTypeId));
}

/** Removes the session keys (sign-out, failed refresh). */
export function clearStoredSession(storage: KeyValueStorage): void {
  writeSession(storage, EMPTY_SESSION);
}
