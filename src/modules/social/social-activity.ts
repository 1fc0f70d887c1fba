import type { SocialAccount } from './social-accounts';

/** The activity-log entity of link (create) and unlink (delete); the field is the provider id. */
export const SOCIAL_ENTITY = 'social_account';

/** How a linked account is shown to its owner and in the log: its email, else its name, else the subject. */
export function accountLabel(account: Pick<SocialAccount, 'email' | 'displayName' | 'subject'>): string {
  return account.email ?? account.displayName ?? account.subject;
}
