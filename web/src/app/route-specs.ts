import { MyProfilePage } from '../features/account/MyProfilePage';
import { HomePage } from '../features/auth/HomePage';
import { PasswordResetPage } from '../features/auth/PasswordResetPage';
import { SocialLoginPage } from '../features/auth/SocialLoginPage';
import { TestPage } from '../features/diagnostics/TestPage';
import { NotFoundPage } from '../features/pages/NotFoundPage';
import { StaticPage } from '../features/pages/StaticPage';
import { UnsubscribePage } from '../features/pages/UnsubscribePage';
import { TagFormPage } from '../features/tags/TagFormPage';
import { TagListPage } from '../features/tags/TagListPage';
import { config } from './config';
import { buildRouteTable, type RouteDef, type RouteSpec } from './route-table';

/** Every declared route (spec section 2); static pages are added from config.staticPages. */
export const ROUTE_SPECS: RouteSpec[] = [
  { name: 'home', path: '/', component: HomePage },
  { name: 'error_404', path: '/page-not-found', component: NotFoundPage },
  { name: 'social_login', path: '/social-login', component: SocialLoginPage },
  { name: 'password_reset', path: '/password-reset', component: PasswordResetPage },
  { name: 'unsubscribe', path: '/unsubscribe', component: UnsubscribePage, skipGuard: true, bare: true },
  { name: 'test', path: '/test', component: TestPage },
  { name: 'my_profile', path: '/me/profile', component: MyProfilePage },
  { name: 'tag_list', path: '/tag', component: TagListPage },
  { name: 'tag_create', path: '/tag/create', component: TagFormPage },
  { name: 'tag_update', path: '/tag/update/:id', component: TagFormPage },
];

/** The console's route table with the configured lists applied. */
export function consoleRouteTable(): RouteDef[] {
  return buildRouteTable(ROUTE_SPECS, { ...config, staticPage: StaticPage });
}
