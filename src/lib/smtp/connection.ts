// One SMTP session on cloudflare:sockets: connect (plain, implicit TLS or STARTTLS), greeting, EHLO, AUTH, QUIT.
// Sending messages over an open session is in ./send.ts.
import { connect } from 'cloudflare:sockets';
import { authenticate } from './auth';
import { DEFAULT_DNS_RESOLVER, diagnoseConnectFailure } from './diagnose';
import { SmtpError } from './errors';
import { formatReply, messageOf, ReplyReader, type SmtpReply } from './reply';
import { DEFAULT_TIMEOUTS, type SmtpTimeouts } from './timeouts';

/** ssl: TLS from the first byte (port 465). starttls: plain, then upgraded (587), required. none: never TLS. */
export type SmtpSecurity = 'ssl' | 'starttls' | 'none';

export { DEFAULT_TIMEOUTS, type SmtpTimeouts } from './timeouts';

export interface SmtpConnectOptions {
  host: string;
  port: number;
  security: SmtpSecurity;
  /** The name we give in EHLO: the integration's domain. */
  clientName: string;
  auth?: { user: string; password: string } | null;
  timeouts?: Partial<SmtpTimeouts>;
  /** DNS-over-HTTPS JSON endpoint, used only to explain a failed connect. */
  dnsResolverUrl?: string;
}

export interface SmtpCapabilities {
  pipelining: boolean;
  startTls: boolean;
  auth: string[];
  /** SIZE limit in bytes; 0 when the server gives none. */
  size: number;
  smtpUtf8: boolean;
  eightBitMime: boolean;
}

const HOST = /^[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/;
const CLIENT_NAME = /^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/;
const encoder = new TextEncoder();

/** Reads EHLO keywords (RFC 5321 4.1.1.1); HELO gives none. */
export function parseCapabilities(ehlo: SmtpReply | null): SmtpCapabilities {
  const caps: SmtpCapabilities = { pipelining: false, startTls: false, auth: [], size: 0, smtpUtf8: false, eightBitMime: false };
  for (const line of ehlo?.lines.slice(1) ?? []) {
    const [keyword = '', ...args] = line.trim().split(/[\s=]+/);
    switch (keyword.toUpperCase()) {
      case 'PIPELINING':
        caps.pipelining = true;
        break;
      case 'STARTTLS':
        caps.startTls = true;
        break;
      case 'AUTH':
        for (const m of args) if (!caps.auth.includes(m.toUpperCase())) caps.auth.push(m.toUpperCase());
        break;
      case 'SIZE':
        caps.size = Number(args[0]) || 0;
        break;
      case 'SMTPUTF8':
        caps.smtpUtf8 = true;
        break;
      case '8BITMIME':
        caps.eightBitMime = true;
        break;
    }
  }
  return caps;
}

/** An open, greeted (and when asked, encrypted and authenticated) SMTP session. */
export class SmtpConnection {
  capabilities: SmtpCapabilities = parseCapabilities(null);
  /** The server's greeting and the last reply seen, for reports. */
  greeting: SmtpReply | null = null;
  lastReply: SmtpReply | null = null;
  /** True once the session can no longer be used (dropped, timed out, 421, QUIT). */
  broken = false;
  /** Set after a failed transaction: the next one starts with RSET. */
  needsReset = false;
  readonly timeouts: SmtpTimeouts;
  private reader!: ReplyReader;
  private writer!: WritableStreamDefaultWriter<Uint8Array>;

  private constructor(
    private socket: Socket,
    readonly options: SmtpConnectOptions,
  ) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.attach();
  }

  /** Connects, reads the greeting, says EHLO, upgrades with STARTTLS when asked and authenticates. */
  static async open(options: SmtpConnectOptions): Promise<SmtpConnection> {
    checkOptions(options);
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    const secureTransport = options.security === 'ssl' ? 'on' : options.security === 'starttls' ? 'starttls' : 'off';
    let socket: Socket;
    try {
      socket = connect({ hostname: options.host, port: options.port }, { secureTransport, allowHalfOpen: false });
    } catch (error) {
      // connect() itself refuses some addresses (in production: port 25, Cloudflare's own ranges).
      const port25 = options.port === 25 ? ' Port 25 is blocked for Workers: use 587 (STARTTLS) or 465 (SSL).' : '';
      throw new SmtpError('invalid_config', `Connections to ${options.host}:${options.port} are not allowed: ${messageOf(error)}.${port25}`);
    }
    try {
      await withTimeout(
        socket.opened,
        timeouts.connect,
        () => new SmtpError('timeout', `no connection to ${options.host}:${options.port} within ${Math.round(timeouts.connect / 1000)} s`),
      );
    } catch (error) {
      socket.close().catch(() => {});
      if (error instanceof SmtpError) throw error;
      throw await diagnoseConnectFailure(
        options.host,
        options.port,
        options.security === 'ssl',
        error,
        options.dnsResolverUrl || DEFAULT_DNS_RESOLVER,
        timeouts.connect,
      );
    }
    const conn = new SmtpConnection(socket, options);
    try {
      await conn.handshake();
      return conn;
    } catch (error) {
      conn.abort();
      throw error;
    }
  }

  private attach(): void {
    this.reader = new ReplyReader(this.socket.readable.getReader());
    this.writer = this.socket.writable.getWriter();
  }

  private async handshake(): Promise<void> {
    const { options, timeouts } = this;
    let greeting: SmtpReply;
    try {
      greeting = await this.reader.next(timeouts.greeting, 'the connection (greeting)');
    } catch (error) {
      if (error instanceof SmtpError && error.kind === 'timeout') {
        throw new SmtpError(
          'timeout',
          `The server at ${options.host}:${options.port} accepted the connection but did not greet us within ${Math.round(timeouts.greeting / 1000)} s. Check that it is an SMTP server and that SSL/TLS match the port (465: SSL, 587: STARTTLS).`,
        );
      }
      if (options.security === 'ssl' && error instanceof SmtpError && error.kind === 'connection_lost') {
        throw new SmtpError('tls_failed', `The TLS connection to ${options.host}:${options.port} closed before the server greeted us: ${error.message}`);
      }
      throw error;
    }
    this.greeting = greeting;
    this.lastReply = greeting;
    if (greeting.code !== 220) {
      const hint = greeting.code === 421 ? 'the server is busy or unavailable right now' : 'the server does not accept our connection';
      throw new SmtpError('rejected', `The server refused the session (${hint}): ${formatReply(greeting)}`, greeting);
    }
    await this.hello();
    if (options.security === 'starttls') await this.upgrade();
    if (options.auth?.user) {
      this.lastReply = await authenticate(this, options.auth.user, options.auth.password ?? '');
    }
  }

  /** EHLO, falling back to HELO (no extensions) when the server does not know EHLO. */
  private async hello(): Promise<void> {
    const ehlo = await this.command(`EHLO ${this.options.clientName}`);
    if (ehlo.code === 250) {
      this.capabilities = parseCapabilities(ehlo);
      return;
    }
    if (ehlo.code === 421) throw this.closing(ehlo);
    const helo = await this.command(`HELO ${this.options.clientName}`);
    if (helo.code !== 250) throw this.replyError(helo, 'protocol', 'The server did not accept our EHLO or HELO');
    this.capabilities = parseCapabilities(null);
  }

  private async upgrade(): Promise<void> {
    const { host, port } = this.options;
    if (!this.capabilities.startTls) {
      throw new SmtpError(
        'starttls_unavailable',
        `The server at ${host}:${port} does not offer STARTTLS, so the connection cannot be encrypted. Use SSL (usually port 465) or turn TLS off if the server really has none.`,
        this.lastReply,
      );
    }
    const reply = await this.command('STARTTLS');
    if (reply.code !== 220) throw this.replyError(reply, 'tls_failed', 'The server refused STARTTLS');
    // Anything the server sent after its 220 would be read as if it came over TLS: refuse it (RFC 3207 5).
    if (this.reader.hasBuffered()) throw new SmtpError('protocol', 'The server sent data after agreeing to STARTTLS');
    this.reader.release();
    this.writer.releaseLock();
    try {
      this.socket = this.socket.startTls({ expectedServerHostname: host });
      this.attach();
      await this.hello();
    } catch (error) {
      if (error instanceof SmtpError && (error.kind === 'timeout' || error.reply)) throw error;
      throw new SmtpError(
        'tls_failed',
        `The TLS handshake with ${host}:${port} after STARTTLS failed: the certificate is not trusted or not for "${host}" (${messageOf(error)}).`,
      );
    }
  }

  /** Writes raw protocol text (commands, or message content already dot-stuffed). */
  async write(text: string): Promise<void> {
    try {
      await this.writer.write(encoder.encode(text));
    } catch (error) {
      this.broken = true;
      throw new SmtpError('connection_lost', `the connection broke while sending: ${messageOf(error)}`);
    }
  }

  /** Reads the next reply; marks the session broken on timeout, drop, or a 421 (server closing). */
  async read(what: string, timeoutMs = this.timeouts.command): Promise<SmtpReply> {
    try {
      const reply = await this.reader.next(timeoutMs, what);
      this.lastReply = reply;
      if (reply.code === 421) this.broken = true;
      return reply;
    } catch (error) {
      this.broken = true;
      throw error;
    }
  }

  /** Sends one command line and waits for its reply; `label` names it in errors (never put secrets there). */
  async command(line: string, label = line, timeoutMs = this.timeouts.command): Promise<SmtpReply> {
    await this.write(`${line}\r\n`);
    return this.read(label, timeoutMs);
  }

  /** Ends the session politely: QUIT, wait briefly for 221, close. Never throws. */
  async quit(): Promise<void> {
    if (!this.broken) {
      try {
        await this.write('QUIT\r\n');
        await this.reader.next(this.timeouts.quit, 'QUIT');
      } catch {
        // the server may close first; either way we are done
      }
    }
    this.abort();
  }

  /** Drops the connection without a word (after errors). */
  abort(): void {
    this.broken = true;
    this.socket.close().catch(() => {});
  }

  replyError(reply: SmtpReply, kind: SmtpError['kind'], what: string): SmtpError {
    return new SmtpError(kind, `${what}: ${formatReply(reply)}`, reply);
  }

  private closing(reply: SmtpReply): SmtpError {
    return new SmtpError('rejected', `The server is closing the session: ${formatReply(reply)}`, reply);
  }
}

function checkOptions(options: SmtpConnectOptions): void {
  if (!options.host || !HOST.test(options.host)) {
    throw new SmtpError('invalid_config', `The server name "${options.host ?? ''}" is not a valid host name.`);
  }
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) {
    throw new SmtpError('invalid_config', `The port "${options.port}" must be a whole number from 1 to 65535.`);
  }
  if (!CLIENT_NAME.test(options.clientName)) {
    throw new SmtpError('invalid_config', `The domain "${options.clientName}" is not a valid name to introduce ourselves with (EHLO).`);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
