import { atom, useAtomValue } from 'jotai';
import type { createStore } from 'jotai';

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
