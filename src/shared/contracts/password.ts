import { z } from 'zod';
import { MESSAGES, atMostCharacters } from '../messages';
import { passwordProblems } from '../password-policy';

/** A new password: must meet the policy; every broken rule is reported with its own message. */
export const newPasswordSchema = z
  .string()
  .max(1024, atMostCharacters(1024))
  .superRefine((value, ctx) => {
    for (const message of passwordProblems(value)) ctx.addIssue({ code: 'custom', message });
  });

/** POST /internal-user/password-remind: always answered with the same generic message. */
export const passwordRemindSchema = z.object({ email: z.string().trim().min(1, MESSAGES.required).max(254) }).strict();

/** POST /internal-user/password-reset: the emailed code and the new password. Ends every session. */
export const passwordResetSchema = z.object({ code: z.string().trim().min(1, MESSAGES.required).max(200), password: newPasswordSchema }).strict();

/**
 * PUT /internal-user/{id}/password: change the password (current one required) or, for a user who has none
 * (social sign-in only), create username-password access (current_password omitted).
 */
export const passwordUpdateSchema = z.object({ current_password: z.string().max(1024).optional(), password: newPasswordSchema }).strict();
