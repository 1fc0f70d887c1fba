import type { Env } from '../../env';
import { lookupAddresses } from '../../lib/dns/doh';
import { dohOptionsOf } from '../domain/check';
import { parseIpv4, parseIpv6, refusedAddress } from './ip-ranges';

// Where a webhook may go, checked when an endpoint is registered and again on every attempt (a name's addresses can
// change between the two): https on port 443, never an address off the public internet, never the platform's own
// host or its organisations' subdomains. On every attempt the name is resolved (DNS over HTTPS, A and AAAA) and every
// address must pass. WEBHOOKS_ALLOW_LOCAL="true" (local development and tests only) also allows http, any port and
// loopback. (The product has no custom hostnames: the organisations' hosts are the platform's subdomains.)

export type AddressEnv = Pick<Env, 'PUBLIC_URL' | 'DNS_RESOLVER_URL' | 'WEBHOOKS_ALLOW_LOCAL'>;
export type AddressCheck = { ok: true } | { ok: false; code: AddressRefusal; message: string };
export type AddressRefusal = 'invalid_url' | 'scheme' | 'port' | 'credentials' | 'refused_address' | 'platform_host' | 'unresolvable';

const refuse = (code: AddressRefusal, message: string): AddressCheck => ({ ok: false, code, message });
export const allowsLocal = (env: Pick<Env, 'WEBHOOKS_ALLOW_LOCAL'>) => env.WEBHOOKS_ALLOW_LOCAL === 'true';

/** The platform's own host name (PUBLIC_URL's), under which every organisation's subdomain is. */
const platformHost = (env: Pick<Env, 'PUBLIC_URL'>) => new URL(env.PUBLIC_URL || 'https://localhost').hostname.toLowerCase();

/** Checks an endpoint URL; `resolve`: also resolve its name and check every address (every attempt does). */
export async function checkEndpointUrl(env: AddressEnv, url: string, options: { resolve: boolean }): Promise<AddressCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('invalid_url', 'not a valid URL');
  }
  const local = allowsLocal(env);
  if (parsed.protocol !== 'https:' && !(local && parsed.protocol === 'http:')) return refuse('scheme', 'the URL must start with https://');
  if (parsed.port !== '' && !local) return refuse('port', 'only the standard HTTPS port (443) is allowed');
  if (parsed.username || parsed.password) return refuse('credentials', 'the URL may not carry a user name or password');
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (parseIpv4(host) || parseIpv6(host)) {
    const why = refusedAddress(host, local);
    return why ? refuse('refused_address', `the host is a ${why}`) : { ok: true };
  }
  const platform = platformHost(env);
  if (host === platform || host.endsWith(`.${platform}`)) return refuse('platform_host', "the platform's own hosts cannot receive webhooks");
  if (!host.includes('.') && !local) return refuse('refused_address', 'the host must be a public domain name');
  return options.resolve ? checkResolved(env, host, local) : { ok: true };
}

/** Resolves the name (A and AAAA) and refuses it when it has no address or any address is refused. */
async function checkResolved(env: AddressEnv, host: string, allowLoopback: boolean): Promise<AddressCheck> {
  const options = dohOptionsOf(env);
  const answers = await Promise.all([lookupAddresses(host, 'A', options), lookupAddresses(host, 'AAAA', options)]);
  const unavailable = answers.find((a) => a.status === 'unavailable');
  if (unavailable && unavailable.status === 'unavailable') return refuse('unresolvable', `the name could not be resolved (${unavailable.reason})`);
  const addresses = answers.flatMap((a) => (a.status === 'ok' ? a.records : []));
  if (addresses.length === 0) return refuse('unresolvable', 'the name has no address');
  for (const address of addresses) {
    const why = refusedAddress(address, allowLoopback);
    if (why) return refuse('refused_address', `the name resolves to a ${why} (${address})`);
  }
  return { ok: true };
}
