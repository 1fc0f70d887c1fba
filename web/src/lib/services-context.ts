import type { i18n as I18n } from 'i18next';
import { createContext, useContext } from 'react';
import type { Services } from './services';
import type { KeyValueStorage } from './storage';
import type { RouteDef } from './route-table';

/** Everything components reach through context rather than module singletons (so tests can swap them). */
export interface AppServices extends Services {
  storage: KeyValueStorage;
  i18n: I18n;
}

/** Carries the services from <Providers> to components. */
export const ServicesContext = createContext<AppServices | null>(null);

/** The app's services (API client, session, store, storage, i18n). */
export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs <Providers>');
  return services;
}

/** Carries the route table from <AppRoutes> to navigation and links. */
export const RouteTableContext = createContext<RouteDef[]>([]);

/** The route table after disabled routes were removed: navigation shows only routes that exist. */
export function useRouteTable(): RouteDef[] {
  return useContext(RouteTableContext);
}
