import { atom, useAtomValue } from 'jotai';
import type { createStore } from 'jotai';
import { useServices } from './services-context';
import { translateServerMessage } from './server-messages';

export type JotaiStore = ReturnType<typeof createStore>;

/** Server 422 field messages, kept per request (method + URL) and field. */
export type FieldErrorsState = Record<string, Record<string, string[]>>;

/** The jotai atom holding every request's 422 field messages. */
export const fieldErrorsAtom = atom<FieldErrorsState>({});

/** Stores a 422 answer's field messages for one request, replacing that request's previous ones. */
export function setFieldErrors(store: JotaiStore, requestKey: string, fields: Record<string, string[]>): void {
  store.set(fieldErrorsAtom, (state) => ({ ...state, [requestKey]: { ...fields } }));
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

/** Clears every stored field message: called after any successful user request. */
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
