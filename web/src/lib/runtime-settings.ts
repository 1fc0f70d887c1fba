import type { ConsoleSettings, GuestInit } from '@shared/contracts/auth';
import { CONSOLE_SETTING_DEFAULTS } from '@shared/console-settings';
import { atom, useAtomValue } from 'jotai';
import { guestInitAtom } from './session-state';
import { config } from './config';

// The console's runtime settings (spec 3 "Settings") come from the server's /init/guest answer, which the
// operator controls (CONSOLE_SETTINGS, src/modules/console-settings): no rebuild to change them. The shared
// defaults stand in before that answer, or for a key an older server does not send.

export interface RuntimeSettings {
  /** Base of every API call: the API origin ('' = this one) plus its path. */
  apiBaseUrl: string;
  /** The API's origin, for the calls outside its path (GET /api/health). */
  apiOrigin: string;
  logUrl: string;
  updatesInterval: number;
  staticPages: string[];
  disabledRoutes: string[];
  removingPageSize: number;
  dialogEnabled: boolean;
}

/** The runtime settings of an /init/guest answer (the build's values for what it lacks). */
export function runtimeSettingsOf(init: Pick<GuestInit, 'settings'> | null): RuntimeSettings {
  const given = (init?.settings ?? {}) as Partial<ConsoleSettings>;
  const s = {
    ...CONSOLE_SETTING_DEFAULTS,
    ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined && value !== null)),
  } as ConsoleSettings;
  return {
    apiBaseUrl: `${s['api.baseUrl']}${s['api.path']}`,
    apiOrigin: s['api.baseUrl'],
    logUrl: s['log.url'],
    updatesInterval: s.updatesInterval,
    staticPages: s.staticPages,
    // The build can remove routes too (config.disabledRoutes): both lists apply.
    disabledRoutes: [...new Set([...config.disabledRoutes, ...s.disabledRoutes])],
    removingPageSize: s.removingPageSize,
    dialogEnabled: s['dialog.enabled'],
  };
}

export const runtimeSettingsAtom = atom((get) => runtimeSettingsOf(get(guestInitAtom)));

/** The console's runtime settings, as the server sent them at start. */
export function useRuntimeSettings(): RuntimeSettings {
  return useAtomValue(runtimeSettingsAtom);
}
