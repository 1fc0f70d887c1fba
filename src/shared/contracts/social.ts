import { z } from 'zod';
import { MESSAGES } from '../messages';

// Social sign-in, link and unlink (OAuth 2 / OpenID Connect).

export const SOCIAL_ACTIONS = ['login', 'link'] as const;
export type SocialAction = (typeof SOCIAL_ACTIONS)[number];

/** Where the browser goes after a link or unlink: /me/security?status=<this>&provider=<id>. */
export const SOCIAL_STATUS = { link: 'social-link', unlink: 'social-unlink' } as const;

/** POST /social/{provider}/authorize: answers the provider URL to send the browser to. */
export const socialAuthorizeSchema = z.object({ action: z.enum(SOCIAL_ACTIONS, { error: 'action must be login or link' }) }).strict();

/**
 * POST /social/{provider}/link: the console of the browser that started a link confirms it with the state the
 * provider's callback handed back (the callback itself links nothing).
 */
export const socialLinkSchema = z
  .object({ state: z.string({ error: MESSAGES.required }).trim().min(1, MESSAGES.required).max(512, 'state must be at most 512 characters') })
  .strict();

/** A configured provider, and whether the current user has linked it (GET /social). */
export interface SocialProviderView {
  id: string;
  name: string;
  linked: boolean;
  /** The linked account's email or name, when linked. */
  account: string | null;
}

/** POST /internal-user/me: loads the user of a social sign-in from the tokens the callback handed over. */
export const socialUserLoadSchema = z
  .object({
    device: z.string().max(300, 'device must be at most 300 characters').optional(),
    access_token: z.string().trim().min(1, MESSAGES.required).max(4096),
    auth_type_id: z.number({ error: 'auth_type_id must be a number' }).int().positive(),
  })
  .strict();
