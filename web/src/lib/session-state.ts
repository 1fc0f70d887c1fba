import { atom } from 'jotai';
import type { CurrentUser, GuestInit } from '@shared/contracts/auth';
import { EMPTY_SESSION, type StoredSession } from './storage';

/** Tokens of the client session (mirrors local storage). */
export const sessionAtom = atom<StoredSession>(EMPTY_SESSION);

/** The signed-in user; the session counts as authenticated only when this is loaded. */
export const currentUserAtom = atom<CurrentUser | null>(null);

/** What /init/guest answered: organisation, auth methods, settings. */
export const guestInitAtom = atom<GuestInit | null>(null);

/** True once the session has been restored at startup (refresh and user fetch included). */
export const sessionReadyAtom = atom(false);
