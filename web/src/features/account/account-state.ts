import { addressError } from '@shared/address';
import { useAtomValue } from 'jotai';
import { guestInitAtom } from '../../lib/session-state';

/** True in the shared demo organisation: account forms and list actions are read-only there. */
export function useIsDemo(): boolean {
  return useAtomValue(guestInitAtom)?.settings.demo === true;
}

/** The interactive API documentation URL from guest init, or null when none is configured. */
export function useApiDocsUrl(): string | null {
  return useAtomValue(guestInitAtom)?.api_docs_url || null;
}

/** True when a login looks like an email address (then the profile sends it as email, else as username). */
export function looksLikeEmail(login: string): boolean {
  return addressError('email', login) === null;
}
