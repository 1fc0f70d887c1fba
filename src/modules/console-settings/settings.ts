import { z } from 'zod';
import type { ConsoleSettings } from '../../shared/contracts/auth';
import { CONSOLE_SETTING_DEFAULTS } from '../../shared/console-settings';
import { IDS_MAX } from '../../shared/list';

// The console's runtime settings (spec 3 "Settings"). The console reads them from /init/guest when it starts, so
// an operator changes them with one variable, CONSOLE_SETTINGS (a JSON object of the keys below), in wrangler.toml
// or the Cloudflare dashboard: no rebuild of the console. A key that is missing or invalid keeps its default (an
// invalid one is logged), so one typo cannot break every console.

const pathOrHttpUrl = z.string().refine((v) => v.startsWith('/') || /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v));

/** What each key accepts. */
const RULES: { [K in keyof ConsoleSettings]: z.ZodType<ConsoleSettings[K]> } = {
  'dialog.enabled': z.boolean(),
  'multiapp.enabled': z.boolean(),
  'log.url': pathOrHttpUrl,
  // '' is the console's own origin; otherwise an http(s) origin with no path.
  'api.baseUrl': z.string().regex(/^(?:https?:\/\/[^\s/]+)?$/),
  'api.path': z.string().regex(/^\/[\w./-]*$/),
  updatesInterval: z.number().int().min(10_000).max(86_400_000),
  staticPages: z.array(z.string().regex(/^[a-z0-9-]{1,40}$/)).max(20),
  removingPageSize: z.number().int().min(1).max(IDS_MAX),
  disabledRoutes: z.array(z.string().min(1).max(100)).max(200),
};

const warned = new Set<string>();

/** The last variable read and its settings: every answer's security policy asks, and the variable rarely changes. */
let cached: { raw: string; settings: ConsoleSettings } | null = null;

/** The settings from CONSOLE_SETTINGS over the defaults. */
export function consoleSettings(env: { CONSOLE_SETTINGS?: string }): ConsoleSettings {
  const raw = env.CONSOLE_SETTINGS?.trim();
  if (!raw) return CONSOLE_SETTING_DEFAULTS;
  if (cached?.raw !== raw) cached = { raw, settings: readSettings(raw) };
  return cached.settings;
}

function readSettings(raw: string): ConsoleSettings {
  let given: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    given = parsed as Record<string, unknown>;
  } catch {
    warnOnce('CONSOLE_SETTINGS is not a JSON object: the console uses its defaults');
    return CONSOLE_SETTING_DEFAULTS;
  }
  const settings: Record<string, unknown> = { ...CONSOLE_SETTING_DEFAULTS };
  for (const [key, value] of Object.entries(given)) {
    const rule = RULES[key as keyof ConsoleSettings];
    if (!rule) warnOnce(`CONSOLE_SETTINGS: unknown key ${key} ignored`);
    else if (rule.safeParse(value).success) settings[key] = value;
    else warnOnce(`CONSOLE_SETTINGS: ${key} ${JSON.stringify(value)} is not valid; the default is used`);
  }
  return settings as unknown as ConsoleSettings;
}

/** The API's origin when the console is told to call another host (for the content security policy), else null. */
export function apiOriginOf(env: { CONSOLE_SETTINGS?: string }): string | null {
  return consoleSettings(env)['api.baseUrl'] || null;
}

function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.error(message);
}
