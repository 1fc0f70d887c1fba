// SMTP AUTH (RFC 4954) with the PLAIN (RFC 4616) and LOGIN mechanisms.
import type { SmtpConnection } from './connection';
import { base64 } from '../mime/encode';
import { SmtpError } from './errors';
import { formatReply, type SmtpReply } from './reply';

const encoder = new TextEncoder();

/** Base64 of the UTF-8 bytes of a string (btoa alone only takes Latin-1). */
export function base64Utf8(text: string): string {
  return base64(encoder.encode(text));
}

/**
 * Logs in with PLAIN when the server offers it, else LOGIN. Wrong credentials (5xx) are permanent; a 454 (temporary
 * failure) is retryable. Returns the server's success reply.
 */
export async function authenticate(conn: SmtpConnection, user: string, password: string): Promise<SmtpReply> {
  const offered = conn.capabilities.auth;
  if (offered.includes('PLAIN')) {
    return expectSuccess(await conn.command(`AUTH PLAIN ${base64Utf8(`\u0000${user}\u0000${password}`)}`, 'AUTH PLAIN'), user);
  }
  if (offered.includes('LOGIN')) {
    let reply = await conn.command('AUTH LOGIN', 'AUTH LOGIN');
    if (reply.code !== 334) return expectSuccess(reply, user);
    reply = await conn.command(base64Utf8(user), 'AUTH LOGIN (user name)');
    if (reply.code !== 334) return expectSuccess(reply, user);
    return expectSuccess(await conn.command(base64Utf8(password), 'AUTH LOGIN (password)'), user);
  }
  const { host, port, security } = conn.options;
  const hint = security === 'starttls' || security === 'ssl' ? '' : ' Many servers offer it only over TLS: turn on TLS (STARTTLS) or SSL.';
  throw new SmtpError(
    'auth_unavailable',
    offered.length
      ? `The server at ${host}:${port} offers only ${offered.join(', ')} authentication; we support PLAIN and LOGIN.`
      : `The server at ${host}:${port} does not offer authentication, but a user name is set.${hint}`,
  );
}

function expectSuccess(reply: SmtpReply, user: string): SmtpReply {
  if (reply.code === 235) return reply;
  if (reply.code === 538) {
    // RFC 4954: "Encryption required for requested authentication mechanism".
    throw new SmtpError(
      'auth_unavailable',
      `The server allows login only over an encrypted connection: turn on TLS (STARTTLS) or SSL. ${formatReply(reply)}`,
      reply,
    );
  }
  if (reply.code >= 400 && reply.code < 500) {
    return fail(reply, `The server could not check the credentials right now (temporary): ${formatReply(reply)}`);
  }
  return fail(reply, `The server did not accept the user name "${user}" and password: ${formatReply(reply)}`);
}

function fail(reply: SmtpReply, message: string): never {
  throw new SmtpError('auth_failed', message, reply);
}
