import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback } from 'react';

/** A counter per collection path, bumped after a save or delete elsewhere so the list refetches instead of showing stale rows. */
export const listRevisionAtom = atom<Record<string, number>>({});

/** The current revision of a collection's lists. */
export function useListRevision(path: string): number {
  return useAtomValue(listRevisionAtom)[path] ?? 0;
}

/** Returns a function that marks a collection's lists as outdated. */
export function useInvalidateList(): (path: string) => void {
  const set = useSetAtom(listRevisionAtom);
  return useCallback((path: string) => set((state) => ({ ...state, [path]: (state[path] ?? 0) + 1 })), [set]);
}
