import { config } from '../../lib/config';
import { buildRouteTable, lazyPage, type RouteDef, type RouteSpec } from '../../lib/route-table';
import type { RuntimeSettings } from '../../lib/runtime-settings';
import { NotFoundPage } from '../pages/NotFoundPage';
import { StaticPage } from '../pages/StaticPage';

// Each page a chunk of its own, loaded when opened (as the console's pages: route-specs.ts).
const PlatformHomePage = lazyPage(() => import('./PlatformHomePage').then((m) => m.PlatformHomePage));
const PreRegistrationPage = lazyPage(() => import('./PreRegistrationPage').then((m) => m.PreRegistrationPage));
const SignupDonePage = lazyPage(() => import('./SignupDonePage').then((m) => m.SignupDonePage));
const SignupPage = lazyPage(() => import('./SignupPage').then((m) => m.SignupPage));
const TestCheckoutPage = lazyPage(() => import('./TestCheckoutPage').then((m) => m.TestCheckoutPage));

/**
 * The routes of the bare platform host (no organisation in the host name): the landing, sign-up with its
 * checkout and completion, pre-registration and the 404 page. Organisation hosts never offer these.
 */
export const PLATFORM_ROUTE_SPECS: RouteSpec[] = [
  { name: 'home', path: '/', component: PlatformHomePage },
  { name: 'error_404', path: '/page-not-found', component: NotFoundPage },
  { name: 'signup', path: '/signup', component: SignupPage },
  { name: 'signup_checkout', path: '/signup/checkout/:id', component: TestCheckoutPage },
  { name: 'signup_done', path: '/signup/done', component: SignupDonePage },
  { name: 'pre_registration', path: '/pre-registration', component: PreRegistrationPage },
];

/**
 * The platform host's route table: every route is open to everyone (nobody signs in on the platform host). Static
 * pages and disabled routes come from the runtime settings, as the console's do.
 */
export function platformRouteTable(settings: Pick<RuntimeSettings, 'staticPages' | 'disabledRoutes'>): RouteDef[] {
  return buildRouteTable(PLATFORM_ROUTE_SPECS, {
    ...config,
    staticPages: settings.staticPages,
    disabledRoutes: settings.disabledRoutes,
    commonRoutes: PLATFORM_ROUTE_SPECS.map((spec) => spec.name),
    staticPage: StaticPage,
  });
}
