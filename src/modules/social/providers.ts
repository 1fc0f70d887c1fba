import type { Env } from '../../env';

/** A social sign-in provider offered to users: its id (github, google, oidc) and the name shown. */
export interface ConfiguredProvider {
  id: string;
  name: string;
}

/** The providers configured in this deployment (a preset is offered when its client id and secret are set). */
export function configuredProviders(_env: Env): ConfiguredProvider[] {
  return [];
}
