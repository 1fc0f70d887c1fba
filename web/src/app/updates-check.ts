import { useEffect } from 'react';
import { useRuntimeSettings } from '../lib/runtime-settings';
import { useServices } from '../lib/services-context';

/**
 * Spec 3: the console checks for a newer version every updatesInterval (default two minutes), not only when an
 * API answer happens to arrive. It asks GET /api/health, whose answer carries x-version like every other: the
 * client's version check does the rest (store it, reload with cbstr when the server's is higher).
 */
export function useUpdatesCheck(): void {
  const { client } = useServices();
  const { apiOrigin, updatesInterval } = useRuntimeSettings();
  useEffect(() => {
    const timer = setInterval(() => {
      client.request({ url: `${apiOrigin}/api/health`, guest: true, noLog: true, bypassWait: true }).catch(() => undefined);
    }, updatesInterval);
    return () => clearInterval(timer);
  }, [client, apiOrigin, updatesInterval]);
}
