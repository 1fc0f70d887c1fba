import { useImportNotifications } from '../features/import/live-imports';
import { usePreloadables } from './preloadables';

/**
 * What runs for a signed-in user only: the preloadables (GET /init/user into the lists' cache) and the live channel's
 * import notifications. A chunk of its own, loaded after sign-in (AppLayout), so the sign-in page does not load the
 * list machinery they use.
 */
export function SignedInEffects() {
  usePreloadables();
  useImportNotifications();
  return null;
}
