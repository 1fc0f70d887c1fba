// "Test connection" for an SMTP integration: connect, greet, encrypt and log in as a real send would, then QUIT,
// and say in plain words what happened.
import { SmtpConnection, type SmtpConnectOptions } from './connection';
import { SmtpError, type SmtpFailureKind } from './errors';
import { formatReply } from './reply';

export interface ConnectionTestResult {
  ok: boolean;
  /** 'ok', or what failed: bad_host, refused, unreachable, tls_failed, timeout, auth_failed, rejected, ... */
  code: 'ok' | SmtpFailureKind;
  /** One or two sentences a person can act on. */
  message: string;
  /** The server's own last words (e.g. "535 5.7.8 Authentication credentials invalid"), when it said any. */
  server_reply: string | null;
}

/** Tries the settings end to end (without sending a message) and reports the outcome; never throws. */
export async function testSmtpConnection(options: SmtpConnectOptions): Promise<ConnectionTestResult> {
  let conn: SmtpConnection;
  try {
    conn = await SmtpConnection.open(options);
  } catch (error) {
    if (error instanceof SmtpError) {
      return { ok: false, code: error.kind, message: error.message, server_reply: error.reply ? formatReply(error.reply) : null };
    }
    return { ok: false, code: 'protocol', message: `Unexpected failure: ${String(error)}`, server_reply: null };
  }
  const reply = conn.lastReply ? formatReply(conn.lastReply) : null;
  await conn.quit();
  const secured = options.security === 'ssl' ? ' over SSL/TLS' : options.security === 'starttls' ? ' with STARTTLS' : ' without encryption';
  const login = options.auth?.user ? `, and the server accepted the user name "${options.auth.user}" and password` : '';
  return {
    ok: true,
    code: 'ok',
    message: `Connected to ${options.host}:${options.port}${secured}${login}.`,
    server_reply: reply,
  };
}
