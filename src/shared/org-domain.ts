import { MESSAGES } from './messages';

// The organisation domain chosen at sign-up: only the label before the platform domain (`my-org` of
// my-org.example.com). The same rule checks sign-up forms in the console and on the server.

/** One DNS label: lowercase letters, digits and inner hyphens, 2 to 63 characters. */
export const ORG_DOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])$/;

/** Labels no organisation may take: the shared demo and names the platform uses or may use itself. */
export const RESERVED_ORG_DOMAINS = new Set([
  'demo',
  'www',
  'api',
  'app',
  'admin',
  'mail',
  'smtp',
  'static',
  'assets',
  'docs',
  'status',
  'support',
  'billing',
  'operator',
]);

/** The subdomain of the shared demo organisation (spec section 1). */
export const DEMO_ORG_DOMAIN = 'demo';

/** Why a domain cannot be used, or null when it has the right form (uniqueness is the server's check). */
export function orgDomainProblem(domain: string): string | null {
  if (!domain) return MESSAGES.required;
  if (!ORG_DOMAIN_PATTERN.test(domain) || domain.includes('--')) return MESSAGES.orgDomainInvalid;
  if (RESERVED_ORG_DOMAINS.has(domain)) return MESSAGES.orgDomainReserved;
  return null;
}
