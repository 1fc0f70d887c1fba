import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { FullPageLoader } from '../../components/common/FullPage';
import { currentUserAtom } from '../../lib/session-state';
import { SignInCard } from './SignInCard';

// The dashboard and its charts (chart.js) are a chunk of their own: a guest signing in never loads them.
const Dashboard = lazy(() => import('./Dashboard').then((m) => ({ default: m.Dashboard })));

/** /: the sign-in card for guests, the dashboard for signed-in users. */
export function HomePage() {
  const user = useAtomValue(currentUserAtom);
  return user ? (
    <Suspense fallback={<FullPageLoader />}>
      <Dashboard user={user} />
    </Suspense>
  ) : (
    <SignInCard />
  );
}
