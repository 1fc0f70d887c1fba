// How long the SMTP client waits at each step of a session (connection.ts), apart so code that only reasons about
// them (the send lease, src/modules/sending/lease.ts) needs no socket.

export interface SmtpTimeouts {
  /** Opening the TCP/TLS connection. */
  connect: number;
  /** Waiting for the 220 greeting. */
  greeting: number;
  /** Waiting for the reply to one command (or one pipelined group). */
  command: number;
  /** Waiting for the reply after the message content (servers scan it first). */
  data: number;
  /** Waiting for the 221 after QUIT. */
  quit: number;
}

export const DEFAULT_TIMEOUTS: SmtpTimeouts = { connect: 15_000, greeting: 30_000, command: 30_000, data: 120_000, quit: 5_000 };
