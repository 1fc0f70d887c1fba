// What can go wrong talking to an SMTP server, sorted into kinds the sender and a person can act on.
import type { SmtpReply } from './reply';

export type SmtpFailureKind =
  /** The settings cannot work (empty host, port out of range, bad EHLO name). */
  | 'invalid_config'
  /** The host name does not resolve. */
  | 'bad_host'
  /** Nothing listens on that host and port, or the host refused us. */
  | 'refused'
  /** We could not reach the host, and could not tell why. */
  | 'unreachable'
  /** TLS (implicit or STARTTLS) failed: untrusted certificate, wrong name, or not TLS on that port. */
  | 'tls_failed'
  /** The server did not answer in time. */
  | 'timeout'
  /** The connection dropped while we were talking. */
  | 'connection_lost'
  /** The server greeted us with 421/554, or closed the session with 421. */
  | 'rejected'
  /** The server did not accept the user name and password. */
  | 'auth_failed'
  /** Credentials are set, but the server offers no AUTH PLAIN or LOGIN (often: only after STARTTLS). */
  | 'auth_unavailable'
  /** STARTTLS is required by the settings but the server does not offer it. */
  | 'starttls_unavailable'
  /** The server answered something we do not understand. */
  | 'protocol';

/** Kinds that may pass by themselves: worth retrying later. */
const RETRYABLE: ReadonlySet<SmtpFailureKind> = new Set(['refused', 'unreachable', 'timeout', 'connection_lost', 'protocol']);

/** A failure of the connection or the session (not of one message); `retryable` follows the kind and reply. */
export class SmtpError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly kind: SmtpFailureKind,
    message: string,
    readonly reply: SmtpReply | null = null,
  ) {
    super(message);
    this.name = 'SmtpError';
    // A reply decides when there is one: 4xx is transient, 5xx permanent (RFC 5321 4.2.1).
    this.retryable = reply ? reply.code >= 400 && reply.code < 500 : RETRYABLE.has(kind);
  }
}
