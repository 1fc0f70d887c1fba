import type { LiveEvent } from '@shared/contracts/import';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { useRuntimeSettings } from './runtime-settings';
import { useServices } from './services-context';
import { liveClientFor } from './live';
import { currentUserAtom } from './session-state';

/**
 * Hands live events (GET /api/v1/live) to `handler` while the component is mounted and a user is signed in.
 * All callers share the console's one connection, which starts with the first signed-in caller.
 */
export function useLiveEvents(handler: (event: LiveEvent) => void): void {
  const services = useServices();
  const userId = useAtomValue(currentUserAtom)?.id ?? null;
  const { apiBaseUrl } = useRuntimeSettings();
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (userId === null || typeof WebSocket === 'undefined') return;
    const live = liveClientFor(services, { apiBaseUrl, pageUrl: () => window.location.href });
    live.start();
    return live.subscribe((event) => latest.current(event));
  }, [services, userId, apiBaseUrl]);
}
