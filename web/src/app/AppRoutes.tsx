import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { Redirect, useLocation } from 'wouter';
import { AppLayout } from '../components/layout/AppLayout';
import { NotFoundPage } from '../features/pages/NotFoundPage';
import { currentUserAtom } from '../lib/session-state';
import { guardRedirect } from './route-access';
import { resolveRoute } from './route-table';
import { consoleRouteTable } from './route-specs';
import { RouteTableContext } from './services-context';

/** Renders the route of the current path after the guard; unknown paths show the 404 page. */
export function AppRoutes() {
  const [location] = useLocation();
  const user = useAtomValue(currentUserAtom);
  const table = useMemo(consoleRouteTable, []);
  const match = resolveRoute(table, location);

  if (!match) {
    return (
      <RouteTableContext.Provider value={table}>
        <AppLayout>
          <NotFoundPage />
        </AppLayout>
      </RouteTableContext.Provider>
    );
  }
  const redirect = guardRedirect(match.route, user !== null);
  if (redirect) return <Redirect to={redirect} replace />;

  const Page = match.route.component;
  const page = <Page key={location} params={match.params} route={match.route} />;
  return <RouteTableContext.Provider value={table}>{match.route.bare ? page : <AppLayout>{page}</AppLayout>}</RouteTableContext.Provider>;
}
