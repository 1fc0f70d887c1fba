import { MESSAGES } from './messages';

// The password policy the server enforces and /init/guest publishes for the console's live checks.
export const PASSWORD_POLICY = {
  min_length: 6,
  is_upper_required: true,
  is_lower_required: true,
  is_number_required: true,
  extra_characters: '!=@-+#$%^&*{}_',
} as const;

export type PasswordPolicy = {
  min_length: number;
  is_upper_required: boolean;
  is_lower_required: boolean;
  is_number_required: boolean;
  extra_characters: string;
};

export type PasswordRule = 'min_length' | 'upper' | 'lower' | 'number' | 'special';

export interface PasswordCheck {
  rule: PasswordRule;
  ok: boolean;
  /** The server's message for this rule; the console translates it by rule. */
  message: string;
}

/**
 * Each rule of the policy that applies, and whether the password meets it. The one place the rules live:
 * the server's zod schema and the console's live checklist both read it.
 */
export function checkPassword(password: string, policy: PasswordPolicy = PASSWORD_POLICY): PasswordCheck[] {
  const checks: PasswordCheck[] = [{ rule: 'min_length', ok: password.length >= policy.min_length, message: MESSAGES.passwordMinLength }];
  if (policy.is_upper_required) checks.push({ rule: 'upper', ok: /\p{Lu}/u.test(password), message: MESSAGES.passwordUppercase });
  if (policy.is_lower_required) checks.push({ rule: 'lower', ok: /\p{Ll}/u.test(password), message: MESSAGES.passwordLowercase });
  if (policy.is_number_required) checks.push({ rule: 'number', ok: /\d/.test(password), message: MESSAGES.passwordDigit });
  if (policy.extra_characters) {
    const ok = [...password].some((ch) => policy.extra_characters.includes(ch));
    checks.push({ rule: 'special', ok, message: MESSAGES.passwordSpecial });
  }
  return checks;
}

/** The messages of the rules a password breaks (empty when it meets the policy). */
export function passwordProblems(password: string, policy: PasswordPolicy = PASSWORD_POLICY): string[] {
  return checkPassword(password, policy)
    .filter((check) => !check.ok)
    .map((check) => check.message);
}
