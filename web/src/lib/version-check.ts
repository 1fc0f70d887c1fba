import { compareVersions } from './semver';
import { readItem, STORAGE_KEYS, writeItem, type KeyValueStorage } from './storage';

export interface VersionCheckDeps {
  storage: KeyValueStorage;
  /** Reloads the page at the given URL. */
  reload: (url: string) => void;
  /** The current page URL. */
  currentUrl: () => string;
  now?: () => number;
}

/**
 * Compares the server's x-version with the stored one. Higher on the server: store it and reload with
 * ?cbstr=<timestamp> (cache-busting) so the new console loads. Nothing stored yet: only store. Returns
 * whether a reload was started.
 */
export function checkVersion(serverVersion: string | null | undefined, deps: VersionCheckDeps): boolean {
  const server = serverVersion?.trim();
  if (!server) return false;
  const stored = readItem(deps.storage, STORAGE_KEYS.version);
  if (!stored) {
    writeItem(deps.storage, STORAGE_KEYS.version, server);
    return false;
  }
  if (compareVersions(server, stored) <= 0) return false;
  writeItem(deps.storage, STORAGE_KEYS.version, server);
  const url = new URL(deps.currentUrl());
  url.searchParams.set('cbstr', String((deps.now ?? Date.now)()));
  deps.reload(url.toString());
  return true;
}
