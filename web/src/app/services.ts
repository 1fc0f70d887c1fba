import { mutate } from 'swr';
import { navigate } from 'wouter/use-browser-location';
import { createServices } from '../lib/services';
import { browserStorage, readItem, STORAGE_KEYS } from '../lib/storage';
import { GUEST_INIT_KEY } from '../lib/swr-keys';
import { config } from '../lib/config';
import { createI18n, detectLanguage, loadConsoleEnglish, loadLocale } from './i18n';
import type { AppServices } from '../lib/services-context';

/**
 * Creates the browser's services once at startup: storage, i18n (with the strings of the language to start in,
 * fetched first unless English; English stands in if they cannot be fetched), API client, session, error log.
 */
export async function createAppServices(): Promise<AppServices> {
  const storage = browserStorage();
  const language = detectLanguage(storage, navigator.languages ?? [navigator.language]);
  // Someone signed in before is likely still: the signed-in areas' English is fetched beside the language's strings.
  const signedIn = readItem(storage, STORAGE_KEYS.refreshToken) !== null;
  const [strings] = await Promise.all([
    language === 'en' ? null : loadLocale(language).catch(() => null),
    signedIn ? loadConsoleEnglish().catch(() => null) : null,
  ]);
  const i18n = createI18n(strings ? language : 'en', strings ? { [language]: strings } : {});
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
    // Sign-out drops every cached answer about the user's data, so the next person in this tab never sees it.
    onSessionCleared: () => void mutate((key) => key !== GUEST_INIT_KEY, undefined, { revalidate: false }),
  });
  // Another tab refreshed, signed in or signed out: follow it (a rotated refresh token must never be reused).
  const sessionKeys: string[] = [STORAGE_KEYS.accessToken, STORAGE_KEYS.refreshToken];
  window.addEventListener('storage', (event) => {
    if (event.key === null || sessionKeys.includes(event.key)) services.session.adoptStoredSession();
  });
  return { ...services, storage, i18n };
}
