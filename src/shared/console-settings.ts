import type { ConsoleSettings } from './contracts/auth';
import { REMOVING_PAGE_SIZE } from './list-sizes';

/**
 * The console's runtime settings when the operator set none (spec 3): the server publishes them over these
 * (src/modules/console-settings), and the console stands on them until /init/guest has answered.
 */
export const CONSOLE_SETTING_DEFAULTS: ConsoleSettings = {
  'dialog.enabled': true,
  'multiapp.enabled': true,
  'log.url': '/api/v1/log',
  'api.baseUrl': '',
  'api.path': '/api/v1',
  updatesInterval: 120_000,
  staticPages: ['terms', 'privacy'],
  removingPageSize: REMOVING_PAGE_SIZE,
  disabledRoutes: [],
};
