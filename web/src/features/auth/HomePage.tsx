import { useAtomValue } from 'jotai';
import { currentUserAtom } from '../../lib/session-state';
import { Dashboard } from './Dashboard';
import { SignInCard } from './SignInCard';

/** /: the sign-in card for guests, the dashboard for signed-in users. */
export function HomePage() {
  const user = useAtomValue(currentUserAtom);
  return user ? <Dashboard user={user} /> : <SignInCard />;
}
