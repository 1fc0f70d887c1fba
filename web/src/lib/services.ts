import { createStore } from 'jotai';
import { ApiClient } from './api-client';
import { ClientLogger } from './client-log';
import type { JotaiStore } from './field-errors';
import { getDeviceId } from './fingerprint';
import { Session } from './session';
import type { KeyValueStorage } from './storage';
import { orgLabelFromHost } from '@shared/tenant-host';
import { checkVersion } from './version-check';

export interface ServicesOptions {
  storage: KeyValueStorage;
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  language: () => string;
  navigate: (to: string) => void;
  reload: (url: string) => void;
  currentUrl: () => string;
  host: () => string;
  userAgent: () => string;
  appName: string;
  appVersion: string;
  baseUrl: string;
  logUrl: string;
  env: string;
  pollMs: number;
  refreshThresholdMs: number;
  debug?: boolean;
  now?: () => number;
  store?: JotaiStore;
  /** Called whenever the session is cleared (sign-out, failed refresh, another tab signed out). */
  onSessionCleared?: () => void;
}

export interface Services {
  store: JotaiStore;
  client: ApiClient;
  session: Session;
  logger: ClientLogger;
  /** Points the API calls and the error log where the server's runtime settings say (once /init/guest answered). */
  applyEndpoints(endpoints: { apiBaseUrl: string; logUrl: string }): void;
}

/** Wires the jotai store, API client, session, version check and error log together (the app and tests both use this). */
export function createServices(options: ServicesOptions): Services {
  const store = options.store ?? createStore();
  const now = options.now ?? Date.now;
  let deviceId: string | null = null;
  let reloading = false;

  // The logger sends through the client; the client reports 5xx to the logger.
  let logger: ClientLogger | null = null;
  let logUrl = options.logUrl;
  const client = new ApiClient({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    store,
    appName: options.appName,
    appVersion: options.appVersion,
    deviceId: () => (deviceId ??= getDeviceId(options.storage, options.debug)),
    language: options.language,
    pollMs: options.pollMs,
    onVersion: (version) => {
      if (reloading) return;
      reloading = checkVersion(version, { storage: options.storage, reload: options.reload, currentUrl: options.currentUrl, now });
    },
    onServerError: (report) =>
      logger?.report({
        message: `HTTP ${report.status} ${report.method} ${report.url}: ${report.message}`,
        name: 'ApiError',
        context: { status: report.status, code: report.code, method: report.method, url: report.url },
      }),
  });
  logger = new ClientLogger({
    env: options.env,
    url: options.currentUrl,
    userAgent: options.userAgent,
    now,
    send: (payload) => {
      const org = orgLabelFromHost(options.host());
      return client.request({
        method: 'POST',
        url: logUrl,
        body: payload,
        guest: true,
        noLog: true,
        bypassWait: true,
        headers: org ? { 'X-ORG': org } : {},
      });
    },
  });
  const session = new Session({
    client,
    store,
    storage: options.storage,
    navigate: options.navigate,
    now,
    refreshThresholdMs: options.refreshThresholdMs,
    onCleared: options.onSessionCleared,
  });
  const applyEndpoints = (endpoints: { apiBaseUrl: string; logUrl: string }) => {
    client.setBaseUrl(endpoints.apiBaseUrl);
    logUrl = endpoints.logUrl;
  };
  return { store, client, session, logger, applyEndpoints };
}
