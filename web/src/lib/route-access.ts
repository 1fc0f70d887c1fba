// Route access rules of spec section 2: who may open which route, and where the rest go.
export type RouteAccess = 'common' | 'guest' | 'user';

/** The configured route-name lists the rules read (defaults live in config.ts). */
export interface AccessLists {
  commonRoutes: string[];
  guestRoutes: string[];
}

/** A route's access: common when listed as common or flagged as a page, guest when listed as guest, otherwise user. */
export function accessOf(name: string, isPage: boolean, lists: AccessLists): RouteAccess {
  if (isPage || lists.commonRoutes.includes(name)) return 'common';
  if (lists.guestRoutes.includes(name)) return 'guest';
  return 'user';
}

/** A guest may open guest and common routes; a signed-in user common routes and anything not in the guest list. */
export function canOpen(access: RouteAccess, signedIn: boolean): boolean {
  if (access === 'common') return true;
  return signedIn ? access !== 'guest' : access === 'guest';
}

/** Where the guard sends a visitor who may not open a route ('/'), or null to let them in. */
export function guardRedirect(route: { access: RouteAccess }, signedIn: boolean): string | null {
  return canOpen(route.access, signedIn) ? null : '/';
}
