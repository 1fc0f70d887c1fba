import { lazy, type ComponentType } from 'react';
import { accessOf, type AccessLists, type RouteAccess } from './route-access';

/** Props every routed page receives: the path parameters and its route. */
export interface PageProps {
  params: Record<string, string>;
  route: RouteDef;
}

/** A page loaded when first rendered (its module a chunk of its own); render it inside <Suspense>. */
export function lazyPage(load: () => Promise<ComponentType<PageProps>>): ComponentType<PageProps> {
  return lazy(async () => ({ default: await load() }));
}

/** A route as declared: name, path pattern (':param' segments), page component, flags. */
export interface RouteSpec {
  name: string;
  path: string;
  component: ComponentType<PageProps>;
  /** Static pages and other pages open to everyone. */
  page?: boolean;
}

/** A route in the table, with its access decided. */
export interface RouteDef extends RouteSpec {
  access: RouteAccess;
}

export interface RouteTableOptions extends AccessLists {
  disabledRoutes: string[];
  staticPages: string[];
  /** The component of static pages (/{pageName}). */
  staticPage: ComponentType<PageProps>;
}

/** Builds the route table: declared routes plus static pages, minus disabled names, each with its access. */
export function buildRouteTable(specs: RouteSpec[], options: RouteTableOptions): RouteDef[] {
  const declared = new Set(specs.map((s) => s.name));
  const pages: RouteSpec[] = options.staticPages
    .filter((name) => !declared.has(name))
    .map((name) => ({ name, path: `/${name}`, component: options.staticPage, page: true }));
  return [...specs, ...pages]
    .filter((spec) => !options.disabledRoutes.includes(spec.name))
    .map((spec) => ({ ...spec, access: accessOf(spec.name, Boolean(spec.page), options) }));
}

/** Matches a path against a pattern like '/tag/update/:id'; returns the parameters or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  const want = trim(pattern).split('/');
  const got = trim(path.split(/[?#]/)[0] || '/').split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      if (!got[i]) return null;
      params[want[i].slice(1)] = safeDecode(got[i]);
    } else if (want[i].toLowerCase() !== got[i].toLowerCase()) {
      return null;
    }
  }
  return params;
}

/** The first route whose pattern matches the path, with its parameters; null means 404. */
export function resolveRoute(table: RouteDef[], path: string): { route: RouteDef; params: Record<string, string> } | null {
  for (const route of table) {
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return null;
}

/** The path of a named route with parameters filled in, or null when the route does not exist (disabled or not built). */
export function pathOf(table: RouteDef[], name: string, params: Record<string, string | number> = {}): string | null {
  const route = table.find((r) => r.name === name);
  if (!route) return null;
  return route.path.replace(/:([A-Za-z_]+)/g, (_, key: string) => encodeURIComponent(String(params[key] ?? '')));
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
