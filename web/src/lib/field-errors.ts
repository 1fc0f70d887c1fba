import { atom, useAtomValue } from 'jotai';
import type { createStore } from 'jotai';
import { useServices } from './services-context';
import { translateServerMessage } from './server-messages';

export type JotaiStore = ReturnType<typeof createStore>;

/** Server 422 field messages, kept per request (method + URL) and field. */
export type FieldErrorsState = Record<string, Record<string, string[]>>;

/** The jotai atom holding every request's 422 field messages. */
export const fieldErrorsAtom = atom<FieldErrorsState>({});

/**
 * When each request's messages were stored, as a count of stores: a call's answer may only clear the messages
 * stored before that call was sent. An answer to a request already on its way (a select's first search started
 * when the form opened) says nothing about messages that came after it, so it must leave them.
 */
const storedAtAtom = atom<{ last: number; byKey: Record<string, number> }>({ last: 0, byKey: {} });

/** Stores a 422 answer's field messages for one request, replacing that request's previous ones. */
export function setFieldErrors(store: JotaiStore, requestKey: string, fields: Record<string, string[]>): void {
  store.set(storedAtAtom, (stamps) => ({ last: stamps.last + 1, byKey: { ...stamps.byKey, [requestKey]: stamps.last + 1 } }));
  store.set(fieldErrorsAtom, (state) => ({ ...state, [requestKey]: { ...fields } }));
}

/** The mark a call takes as it is sent, for clearFieldErrorsStoredBefore once it has succeeded. */
export function fieldErrorsMark(store: JotaiStore): number {
  return store.get(storedAtAtom).last;
}

/**
 * Clears the messages stored before a call was sent (its `mark`): called after a successful user request. Messages
 * stored while it was on its way (a submit refused in the meantime) stay, for the request that answered predates them.
 */
export function clearFieldErrorsStoredBefore(store: JotaiStore, mark: number): void {
  const { byKey } = store.get(storedAtAtom);
  store.set(fieldErrorsAtom, (state) => {
    const kept = Object.keys(state).filter((key) => (byKey[key] ?? 0) > mark);
    if (kept.length === Object.keys(state).length) return state;
    return Object.fromEntries(kept.map((key) => [key, state[key]]));
  });
}

/** Clears the messages of one field of one request: called when the user edits that field. */
export function clearFieldError(store: JotaiStore, requestKey: string, field: string): void {
  store.set(fieldErrorsAtom, (state) => {
    const current = state[requestKey];
    if (!current || !(field in current)) return state;
    const rest = { ...current };
    delete rest[field];
    return { ...state, [requestKey]: rest };
  });
}

/** Clears every stored field message: called when the session ends (the next user must not see them). */
export function clearAllFieldErrors(store: JotaiStore): void {
  store.set(fieldErrorsAtom, (state) => (Object.keys(state).length ? {} : state));
}

/** The field messages of one request, for a form. */
export function useFieldErrors(requestKey: string): Record<string, string[]> {
  return useAtomValue(fieldErrorsAtom)[requestKey] ?? NO_ERRORS;
}

const NO_ERRORS: Record<string, string[]> = {};

/** A form's field messages (server 422s kept under its request key) with helpers to clear one field or set browser checks. */
export function useFormErrors(requestKey: string) {
  const { store } = useServices();
  const errors = useFieldErrors(requestKey);
  return {
    errors,
    /** Clears a field's messages: called when the user edits it. */
    clear: (field: string) => clearFieldError(store, requestKey, field),
    /** Shows messages found in the browser before anything is sent, like a server 422. */
    set: (fields: Record<string, string[]>) => setFieldErrors(store, requestKey, fields),
  };
}

/** One input's messages in the user's language, joined, or undefined when there are none (for an input's error prop). */
export function fieldErrorText(t: (key: string) => string, messages: string[] | undefined): string | undefined {
  return messages?.length ? messages.map((m) => translateServerMessage(t, m)).join(' ') : undefined;
}
