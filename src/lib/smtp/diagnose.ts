// Telling apart why a connection could not be opened. The Workers runtime reports every failed connect() with the
// same words, so we ask two more questions: does the name resolve (DNS over HTTPS), and does plain TCP work where
// TLS did not. Only runs after a failure, never on the sending path.
import { connect } from 'cloudflare:sockets';
import { SmtpError } from './errors';
import { messageOf } from './reply';

/** The resolver asked when DNS_RESOLVER_URL is unset: the one default every DNS lookup shares (src/lib/dns/doh.ts). */
export { DEFAULT_DOH_RESOLVER as DEFAULT_DNS_RESOLVER } from '../dns/doh';

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** True for an IPv4 or IPv6 literal: nothing to resolve. */
export const isIpLiteral = (host: string) => IPV4.test(host) || host.includes(':');

type Resolution = 'resolves' | 'no_such_host' | 'unknown';

/** Asks the DNS-over-HTTPS resolver for A and AAAA records; 'unknown' when the resolver cannot be asked. */
export async function resolveHost(host: string, resolverUrl: string, timeoutMs = 3000): Promise<Resolution> {
  if (isIpLiteral(host)) return 'resolves';
  let answered = 0;
  for (const type of ['A', 'AAAA']) {
    try {
      const url = `${resolverUrl}?name=${encodeURIComponent(host)}&type=${type}`;
      const res = await fetch(url, { headers: { accept: 'application/dns-json' }, signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) continue;
      const body = (await res.json()) as { Status?: number; Answer?: { type: number }[] };
      answered++;
      if (body.Status === 3) return 'no_such_host'; // NXDOMAIN
      if (body.Status === 0 && (body.Answer ?? []).some((a) => a.type === 1 || a.type === 28 || a.type === 5)) return 'resolves';
    } catch {
      // resolver unreachable: we cannot tell
    }
  }
  // NOERROR without addresses for both types: the name exists but has nowhere to connect to.
  return answered === 2 ? 'no_such_host' : 'unknown';
}

/** True when a plain TCP connection to host:port opens (used to tell a TLS failure from an unreachable host). */
export async function tcpOpens(host: string, port: number, timeoutMs: number): Promise<boolean> {
  let socket: Socket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    socket = connect({ hostname: host, port }, { allowHalfOpen: false });
    await Promise.race([
      socket.opened,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    socket?.close().catch(() => {});
  }
}

/**
 * Explains a failed connect(): bad host name, TLS failure (TCP works but TLS does not), or refused/unreachable.
 * `tls` is true when the failed attempt was implicit TLS.
 */
export async function diagnoseConnectFailure(
  host: string,
  port: number,
  tls: boolean,
  cause: unknown,
  resolverUrl: string,
  timeoutMs: number,
): Promise<SmtpError> {
  const where = `${host}:${port}`;
  const resolution = await resolveHost(host, resolverUrl);
  if (resolution === 'no_such_host') {
    return new SmtpError('bad_host', `The host name "${host}" does not exist (DNS has no address for it). Check the server name.`);
  }
  if (tls && (await tcpOpens(host, port, timeoutMs))) {
    return new SmtpError(
      'tls_failed',
      `The server at ${where} accepts connections but the TLS handshake failed: its certificate is not trusted or not for "${host}", or the port does not speak implicit TLS (SSL). Try port 465 with SSL, or 587 with STARTTLS.`,
    );
  }
  const port25 = port === 25 ? ' Port 25 is blocked for outgoing connections from Workers: use 587 (STARTTLS) or 465 (SSL).' : '';
  if (resolution === 'resolves') {
    return new SmtpError('refused', `The connection to ${where} was refused: no SMTP server is listening there, or a firewall blocks it.${port25}`);
  }
  return new SmtpError(
    'unreachable',
    `Could not connect to ${where}: the host name may be wrong, or the server refused the connection (${messageOf(cause)}).${port25}`,
  );
}
