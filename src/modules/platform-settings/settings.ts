import { inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Env } from '../../env';
import type { Database } from '../../db/client';
import { platformSettings } from '../../db/schema';
import { platformOrigin } from '../../lib/org-url';
import { MESSAGES, atMostCharacters } from '../../shared/messages';

/** The sign-up settings of spec section 3 (signup.enabled, signup.active, signup.applicationUrl). */
export interface SignupSettings {
  'signup.enabled': boolean;
  'signup.active': boolean;
  'signup.applicationUrl': string;
}

const SIGNUP_KEYS = ['signup.enabled', 'signup.active', 'signup.applicationUrl'] as const;

const httpUrl = z
  .string()
  .trim()
  .max(2000, atMostCharacters(2000))
  .refine((value) => {
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, MESSAGES.invalidUrl);

/** PUT /operator/settings: any subset of the sign-up settings. */
export const signupSettingsUpdateSchema = z
  .object({ 'signup.enabled': z.boolean().optional(), 'signup.active': z.boolean().optional(), 'signup.applicationUrl': httpUrl.optional() })
  .strict();

function defaults(env: Pick<Env, 'PUBLIC_URL'>): SignupSettings {
  return { 'signup.enabled': true, 'signup.active': true, 'signup.applicationUrl': `${platformOrigin(env)}/signup` };
}

/**
 * The platform's sign-up settings: what the operator stored (platform_settings), else the defaults
 * (enabled, active, the platform host's /signup page).
 */
export async function readSignupSettings(env: Env, db: Database): Promise<SignupSettings> {
  const settings = defaults(env);
  const rows = await db
    .select()
    .from(platformSettings)
    .where(inArray(platformSettings.key, [...SIGNUP_KEYS]));
  for (const row of rows) {
    let value: unknown;
    try {
      value = JSON.parse(row.value);
    } catch {
      continue; // A damaged value falls back to the default rather than breaking every page.
    }
    const key = row.key as keyof SignupSettings;
    if (key === 'signup.applicationUrl' ? typeof value === 'string' && value : typeof value === 'boolean') {
      (settings as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return settings;
}

/** Stores the given sign-up settings (operator API); the others keep their value. Returns all of them. */
export async function writeSignupSettings(env: Env, db: Database, changes: Partial<SignupSettings>): Promise<SignupSettings> {
  const now = new Date().toISOString();
  const rows = Object.entries(changes)
    .filter(([key, value]) => (SIGNUP_KEYS as readonly string[]).includes(key) && value !== undefined)
    .map(([key, value]) => ({ key, value: JSON.stringify(value), updatedAt: now }));
  if (rows.length) {
    await db
      .insert(platformSettings)
      .values(rows)
      .onConflictDoUpdate({ target: platformSettings.key, set: { value: sql`excluded.value`, updatedAt: now } });
  }
  return readSignupSettings(env, db);
}
