import { actionsFor, type Broadcast, type BroadcastProgress } from '@shared/contracts/broadcast';
import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useLiveEvents } from '../../lib/use-live';

// The newest progress of each broadcast pushed over the live channel ('broadcast.progress'): lists and views show
// it over what they loaded, so counters and statuses move without a reload and without polling.

const progressAtom = atom<Record<number, BroadcastProgress>>({});

/** Listens for broadcast progress while the calling screen is mounted. */
export function useBroadcastProgressFeed(): void {
  const set = useSetAtom(progressAtom);
  useLiveEvents((event) => {
    if (event.type !== 'broadcast.progress') return;
    set((all) => ({ ...all, [event.broadcast.id]: event.broadcast }));
  });
}

/** A loaded broadcast with the pushed progress over it when that is newer. */
export function useLiveBroadcast<T extends Broadcast | null | undefined>(loaded: T): T {
  const all = useAtomValue(progressAtom);
  if (!loaded) return loaded;
  const pushed = all[loaded.id];
  if (!pushed || pushed.updated_at < loaded.updated_at) return loaded;
  return { ...loaded, ...pushed, actions: actionsFor(pushed.status, pushed.failed) } as T;
}
