// The one rule for what a sending domain's name may be: a registrable host name (at least a name under a public
// suffix: example.co.uk, not co.uk), never an IP address, never the platform's own host or bounce domain or a name
// under them; stored lower case and ASCII (an international name in its punycode form, as DNS and DKIM's d= use it).
import { parse } from 'tldts';
import type { Env } from '../../env';
import { bounceDomainOf } from '../bounce/address';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export type DomainNameResult = { ok: true; domain: string } | { ok: false; reason: 'domain' | 'platformDomain' };

/** The ASCII form of a host name (punycode for international labels), or null when it is not a host name. */
function asciiHost(name: string): string | null {
  if (/[\s/\\?#@:[\]%*]/.test(name)) return null;
  try {
    return new URL(`http://${name}/`).hostname.replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** The names the platform itself answers or receives mail on: nobody's sending domain. */
export function platformDomains(env: Pick<Env, 'PUBLIC_URL' | 'BOUNCE_DOMAIN'>): string[] {
  const names: string[] = [];
  try {
    names.push(new URL(env.PUBLIC_URL).hostname.toLowerCase());
  } catch {
    // An unset or odd PUBLIC_URL names no host to protect.
  }
  const bounce = bounceDomainOf(env);
  if (bounce) names.push(bounce);
  return names;
}

/** True when `name` is `parent` or a name under it. */
export const isSameOrUnder = (name: string, parent: string) => name === parent || name.endsWith(`.${parent}`);

/** Reads a domain name as an organisation typed it (already trimmed and lower-cased by the contract). */
export function readDomainName(input: string, env: Pick<Env, 'PUBLIC_URL' | 'BOUNCE_DOMAIN'>): DomainNameResult {
  const domain = asciiHost(input.trim().toLowerCase().replace(/\.$/, ''));
  if (!domain || domain.length > 253) return { ok: false, reason: 'domain' };
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels.at(-1)!)) return { ok: false, reason: 'domain' };
  const parsed = parse(domain, { allowPrivateDomains: true });
  // A public suffix itself (co.uk, github.io) belongs to no one organisation.
  if (parsed.isIp || !parsed.domain) return { ok: false, reason: 'domain' };
  if (platformDomains(env).some((platform) => isSameOrUnder(domain, platform))) return { ok: false, reason: 'platformDomain' };
  return { ok: true, domain };
}
