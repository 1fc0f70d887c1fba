// Real SMTP servers (the `smtp-server` package) on loopback for the transport tests, in the configurations the
// client must cope with. Everything they receive goes into a shared mailbox the tests read over HTTP.
//
// Recipient local parts steer the answers: reject5-* gets 550 at RCPT, reject4-* 450 at RCPT, data5-* makes the
// message fail with 554 after DATA, data4-* with 451. Two "try later" answers that pass: busy421-* gets 421 at
// RCPT the first time the address is tried on a server (smtp-server then closes the session), slow451-* gets 451
// (a rate limit; the session goes on); both are accepted on the next try.
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { ReceivedMail } from './transport-context';
import type { TestTls } from './tls-cert.mjs';

export const SMTP_USER = 'relay-user@example.test';
export const SMTP_PASSWORD = 'pässwörd with spaces';

/** Everything the test servers received, in order. */
export class Mailbox {
  readonly mail: ReceivedMail[] = [];
  readonly stats = new Map<string, { connections: number; violations: number; quits: number }>();

  stat(server: string) {
    let s = this.stats.get(server);
    if (!s) this.stats.set(server, (s = { connections: 0, violations: 0, quits: 0 }));
    return s;
  }
}

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

function codeError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/** Starts one smtp-server with the given options, recording into `mailbox` under `name`. */
export async function startSmtpServer(name: string, mailbox: Mailbox, options: Partial<SMTPServerOptions>): Promise<RunningServer> {
  const triedOnce = new Set<string>();
  const server = new SMTPServer({
    logger: false,
    banner: `relay test server ${name}`,
    size: 10 * 1024 * 1024,
    disabledCommands: [],
    ...options,
    onConnect(session, callback) {
      mailbox.stat(name).connections++;
      if (options.onConnect) return options.onConnect(session, callback);
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) return callback(null, { user: auth.username });
      callback(codeError(535, '5.7.8 Authentication credentials invalid'));
    },
    onRcptTo(address, _session, callback) {
      const local = address.address.split('@')[0];
      if (local.startsWith('reject5')) return callback(codeError(550, '5.1.1 No such user here'));
      // A refusal for policy, not for the mailbox: says nothing about whether the address exists.
      if (local.startsWith('policy5')) return callback(codeError(550, '5.7.1 Message refused by policy'));
      if (local.startsWith('reject4')) return callback(codeError(450, '4.2.1 Mailbox busy, try again later'));
      const busy = local.startsWith('busy421') ? 421 : local.startsWith('slow451') ? 451 : 0;
      if (busy && !triedOnce.has(address.address)) {
        triedOnce.add(address.address);
        return callback(codeError(busy, busy === 421 ? '4.7.0 Too many connections, closing' : '4.7.1 Rate limit exceeded, slow down'));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        if (to.some((a) => a.startsWith('data5'))) return callback(codeError(554, '5.6.0 Message content rejected'));
        if (to.some((a) => a.startsWith('data4'))) return callback(codeError(451, '4.3.0 Temporary failure, try later'));
        mailbox.mail.push({
          server: name,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to,
          raw: Buffer.concat(chunks).toString('utf8'),
          connection: session.id,
          transaction: session.transaction,
          ehlo: session.hostNameAppearsAs,
          secure: session.secure,
          user: (session.user as string | undefined) ?? null,
        });
        callback(null, `2.0.0 Ok: queued as ${name}-${mailbox.mail.length}`);
      });
    },
  });
  server.on('error', () => {});
  const port = await new Promise<number>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
  });
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The set of smtp-server configurations the transport tests use, by name. */
export async function startSmtpServers(mailbox: Mailbox, tls: TestTls) {
  const noTls = { disabledCommands: ['STARTTLS'] };
  const refuse = (code: number, text: string): Partial<SMTPServerOptions> => ({
    ...noTls,
    authOptional: true,
    onConnect: (_s, cb) => cb(codeError(code, text)),
  });
  const configs: Record<string, Partial<SMTPServerOptions>> = {
    // Plain, PIPELINING, AUTH PLAIN/LOGIN required.
    pipe: { ...noTls, allowInsecureAuth: true },
    // Plain, no PIPELINING advertised, only AUTH LOGIN.
    nopipe: { ...noTls, allowInsecureAuth: true, hidePIPELINING: true, authMethods: ['LOGIN'] },
    // Plain, no AUTH at all.
    open: { disabledCommands: ['STARTTLS', 'AUTH'], authOptional: true },
    // STARTTLS with a certificate signed by the test CA; AUTH only after TLS.
    starttls: { key: tls.trusted.key, cert: tls.trusted.cert },
    // Implicit TLS (SMTPS) with the trusted certificate.
    ssl: { secure: true, key: tls.trusted.key, cert: tls.trusted.cert },
    // Implicit TLS / STARTTLS with a self-signed certificate nobody trusts.
    sslUntrusted: { secure: true, key: tls.untrusted.key, cert: tls.untrusted.cert },
    starttlsUntrusted: { key: tls.untrusted.key, cert: tls.untrusted.cert },
    // Greetings that refuse the session.
    greet421: refuse(421, '4.7.0 Too many connections, try again later'),
    greet554: refuse(554, '5.7.1 Your address is not allowed to send here'),
  };
  const running: Record<string, RunningServer> = {};
  for (const [name, options] of Object.entries(configs)) running[name] = await startSmtpServer(name, mailbox, options);
  return running;
}
