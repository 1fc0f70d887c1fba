import { navigate } from 'wouter/use-browser-location';
import { createServices } from '../lib/services';
import { browserStorage } from '../lib/storage';
import { config } from './config';
import { createI18n, detectLanguage } from './i18n';
import type { AppServices } from './services-context';

/** Creates the browser's services once at startup: storage, i18n, API client, session, error log. */
export function createAppServices(): AppServices {
  const storage = browserStorage();
  const i18n = createI18n(detectLanguage(storage, navigator.languages ?? [navigator.language]));
  document.documentElement.lang = i18n.language;
  const services = createServices({
    storage,
    fetch: (input, init) => fetch(input, init),
    language: () => i18n.language || config.defaultLanguage,
    navigate: (to) => navigate(to),
    reload: (url) => window.location.replace(url),
    currentUrl: () => window.location.href,
    host: () => window.location.host,
    userAgent: () => navigator.userAgent,
    appName: config.appName,
    appVersion: config.version,
    baseUrl: config.apiBaseUrl,
    logUrl: config.logUrl,
    env: config.env,
    pollMs: config.waitPollMs,
    refreshThresholdMs: config.refreshThresholdMs,
    debug: config.debug,
  });
  return { ...services, storage, i18n };
}
