import type { Dashboard } from '@shared/contracts/dashboard';
import type { ItemBody } from '@shared/errors';
import { useRef } from 'react';
import useSWR from 'swr';
import { useLiveEvents } from '../../lib/use-live';

export const DASHBOARD_PATH = '/dashboard';

/** How often a sending broadcast may refetch the dashboard (its progress arrives several times a second). */
const LIVE_REFRESH_MS = 3_000;

/** GET /dashboard, refetched while a broadcast sends (the live channel's 'broadcast.progress'). */
export function useDashboard() {
  const swr = useSWR<ItemBody<Dashboard>>(DASHBOARD_PATH);
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveEvents((event) => {
    if (event.type !== 'broadcast.progress' || timer.current) return;
    const wait = Math.max(0, last.current + LIVE_REFRESH_MS - Date.now());
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      void swr.mutate();
    }, wait);
  });
  return swr;
}
