// "Test connection" for SMTP integrations: each way it can go wrong comes back as its own code and a sentence a
// person can act on, with the server's own reply when there was one.
import { describe, expect, it } from 'vitest';
import { testIntegrationConnection, type TransportIntegration } from '../../../../src/lib/transport/open';
import { FAST, NOT_SET_UP, S } from '../../../support/transport-helpers';

function integration(details: Record<string, unknown>, password = S.smtpPassword): TransportIntegration {
  return {
    type: 'smtp',
    details: { server: '127.0.0.1', ssl: false, tls: false, domain: 'mail.acme.test', user: S.smtpUser, ...details },
    secret: { password },
  };
}

const env = () => ({ DNS_RESOLVER_URL: `${S.control}/dns-query` });
const check = (details: Record<string, unknown>, password?: string, timeouts = FAST) =>
  testIntegrationConnection(integration(details, password), env(), { timeouts });

describe.skipIf(NOT_SET_UP)('SMTP test connection', () => {
  it('reports success with the server reply to the login', async () => {
    const result = await check({ port: S.smtp.pipe });
    expect(result).toMatchObject({ ok: true, code: 'ok' });
    expect(result.message).toBe(
      `Connected to 127.0.0.1:${S.smtp.pipe} without encryption, and the server accepted the user name "${S.smtpUser}" and password.`,
    );
    expect(result.server_reply).toMatch(/^235 /);
    expect(await check({ port: S.smtp.starttls, tls: true })).toMatchObject({ ok: true, message: expect.stringContaining('with STARTTLS') });
    expect(await check({ port: S.smtp.ssl, ssl: true })).toMatchObject({ ok: true, message: expect.stringContaining('over SSL/TLS') });
  });

  it('bad host: the name does not exist', async () => {
    const result = await check({ server: 'smtp.nowhere.invalid', port: 587 });
    expect(result).toMatchObject({ ok: false, code: 'bad_host', server_reply: null });
    expect(result.message).toMatch(/"smtp\.nowhere\.invalid" does not exist/);
  });

  it('refused: nothing listens on the port', async () => {
    const result = await check({ port: S.closedPort });
    expect(result).toMatchObject({ ok: false, code: 'refused' });
    expect(result.message).toMatch(/refused/);
  });

  it('TLS failure: untrusted certificate with SSL and with STARTTLS, and SSL on a plain port', async () => {
    const ssl = await check({ port: S.smtp.sslUntrusted, ssl: true });
    expect(ssl).toMatchObject({ ok: false, code: 'tls_failed' });
    expect(ssl.message).toMatch(/TLS handshake failed/);
    const starttls = await check({ port: S.smtp.starttlsUntrusted, tls: true });
    expect(starttls).toMatchObject({ ok: false, code: 'tls_failed' });
    expect((await check({ port: S.smtp.pipe, ssl: true })).code).toBe('tls_failed');
  });

  it('wrong credentials: says so and quotes the server', async () => {
    const result = await check({ port: S.smtp.pipe }, 'wrong password');
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
    expect(result.message).toMatch(/did not accept the user name/);
    expect(result.server_reply).toBe('535 5.7.8 Authentication credentials invalid');
  });

  it('timeout: the server accepts the connection but never answers', async () => {
    const result = await check({ port: S.scripted.silent, user: null }, undefined, { ...FAST, greeting: 700 });
    expect(result).toMatchObject({ ok: false, code: 'timeout' });
    expect(result.message).toMatch(/did not greet us within/);
  });

  it('a server that turns us away, and settings that cannot work', async () => {
    const busy = await check({ port: S.smtp.greet421, user: null });
    expect(busy).toMatchObject({ ok: false, code: 'rejected', server_reply: '421 4.7.0 Too many connections, try again later' });
    expect((await check({ port: S.smtp.pipe, tls: true })).code).toBe('starttls_unavailable');
    expect((await check({ port: 0 })).code).toBe('invalid_config');
    const noAuth = await check({ port: S.smtp.open });
    expect(noAuth).toMatchObject({ ok: false, code: 'auth_unavailable' });
  });
});
