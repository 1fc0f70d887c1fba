import { useAtomValue } from 'jotai';
import { Suspense, useMemo, type ReactNode } from 'react';
import { FullPageLoader } from '../components/common/FullPage';
import { Redirect, useLocation } from 'wouter';
import { AppLayout } from './AppLayout';
import { ConsoleStrings } from './ConsoleStrings';
import { NotFoundPage } from '../features/pages/NotFoundPage';
import { platformRouteTable } from '../features/signup/platform-routes';
import { currentUserAtom, guestInitAtom } from '../lib/session-state';
import { guardRedirect } from '../lib/route-access';
import { resolveRoute } from '../lib/route-table';
import { consoleRouteTable } from './route-specs';
import { useRuntimeSettings } from '../lib/runtime-settings';
import { RouteTableContext } from '../lib/services-context';

/** Renders the route of the current path after the guard; unknown paths show the 404 page. The platform host has its own table. */
export function AppRoutes() {
  const [location] = useLocation();
  const user = useAtomValue(currentUserAtom);
  // The bare platform host (no organisation) offers only the platform pages: landing, sign-up, pre-registration.
  const platform = useAtomValue(guestInitAtom)?.organization === null;
  const { staticPages, disabledRoutes } = useRuntimeSettings();
  const table = useMemo(() => {
    const settings = { staticPages, disabledRoutes };
    return platform ? platformRouteTable(settings) : consoleRouteTable(settings);
  }, [platform, staticPages, disabledRoutes]);
  const match = resolveRoute(table, location);

  if (!match) {
    return (
      <SignedInStrings signedIn={user !== null}>
        <RouteTableContext.Provider value={table}>
          <AppLayout>
            <NotFoundPage />
          </AppLayout>
        </RouteTableContext.Provider>
      </SignedInStrings>
    );
  }
  const redirect = guardRedirect(match.route, user !== null);
  if (redirect) return <Redirect to={redirect} replace />;

  const Page = match.route.component;
  const page = (
    <Suspense fallback={<FullPageLoader />}>
      <Page key={location} params={match.params} route={match.route} />
    </Suspense>
  );
  return (
    <SignedInStrings signedIn={user !== null}>
      <RouteTableContext.Provider value={table}>
        <AppLayout>{page}</AppLayout>
      </RouteTableContext.Provider>
    </SignedInStrings>
  );
}

/** A signed-in user's screens wait for the signed-in areas' English (a guest's need only the first script's). */
function SignedInStrings({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  if (!signedIn) return children;
  return (
    <Suspense fallback={<FullPageLoader />}>
      <ConsoleStrings>{children}</ConsoleStrings>
    </Suspense>
  );
}
