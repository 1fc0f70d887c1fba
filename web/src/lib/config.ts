// Console settings in one place. Values here are the product defaults (spec sections 2, 7 and 9). The runtime
// settings (API base, log URL, static pages, disabled routes, updates interval, removing page size) come from the
// server at start (app/runtime-settings.ts); until then the shared defaults stand in.
import { CONSOLE_SETTING_DEFAULTS } from '@shared/console-settings';
import { LANGUAGES, type LanguageCode } from '@shared/languages';

export { LANGUAGES, type LanguageCode };

export const config = {
  /** App identity sent in X-APP and X-DEVICE. */
  appName: 'relay-console',
  version: __APP_VERSION__,
  env: 'production',
  apiBaseUrl: CONSOLE_SETTING_DEFAULTS['api.path'],
  /** Where client errors are reported (POST). */
  logUrl: CONSOLE_SETTING_DEFAULTS['log.url'],
  /** Route names removed from the route table. */
  disabledRoutes: [] as string[],
  /** Offer the API keys page (me/api and its create and update routes). */
  apiListable: true,
  /** Static pages served at /{pageName}; flagged as pages, so they are common routes. */
  staticPages: CONSOLE_SETTING_DEFAULTS.staticPages,
  /** Routes open to everyone (plus any route flagged as a page). */
  commonRoutes: ['home', 'error_404', 'social_login', 'demo_info'] as string[],
  /** Routes only guests may open (plus the common ones). */
  guestRoutes: ['password_reset', 'forgot_password', 'sign_complete'] as string[],
  /** Refresh the access token at startup when it expires within this many milliseconds. */
  refreshThresholdMs: 30_000,
  /** How often waiting requests check whether auth fetching or refreshing has finished. */
  waitPollMs: 100,
  defaultLanguage: 'en' as LanguageCode,
  /** Page sizes the list screen offers. */
  pageSizes: [10, 25, 50, 100],
  defaultPageSize: 10,
  /** Extra console logging (fingerprint failures and the like). */
  debug: import.meta.env.DEV,
};
