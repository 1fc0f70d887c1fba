#!/usr/bin/env node
// Knowing a platform works (local or deployed): npm run smoke -- <platform url> [options]
//
// Signs in with an organisation the operator made for it (POST /operator/organizations, made on the first run),
// checks its SMTP integration's connection, creates a contact, sends it a test message through the integration,
// waits until the provider took it, and loads a tracking pixel. Reports each step with its time; exits non-zero
// at the first step that fails, saying what failed. Plain Node, no dependencies.
//
//   --org <domain>        the smoke organisation's subdomain (default smoke-check)
//   --smtp <url>          smtp://user:password@host:port (smtps:// for implicit TLS; ?starttls=1): the integration
//                         made on the first run (later runs keep the one they find)
//   --from <address>      the sender made with it (default smoke@example.com)
//   --to <address>        who the test message goes to (default smoke-check@example.com)
//   --mailbox <url>       a mail catcher's viewer (local): the pixel loaded is the delivered message's own, and its
//                         open is checked on the message; without it the pixel route is checked to answer
// The operator token is OPERATOR_TOKEN, else the OPERATOR_TOKEN line of .dev.vars. The smoke user's password is
// SMOKE_PASSWORD, else derived from the operator token (so every run signs in as the same user).
import { createHash } from 'node:crypto';
import { operatorToken } from './lib/operator-token.mjs';
import { parseArgs } from 'node:util';

const USAGE = 'Usage: npm run smoke -- <platform url> [--org <domain>] [--smtp <smtp url>] [--from <address>] [--to <address>] [--mailbox <viewer url>]';
const TIMEOUT_MS = 60_000;

/** A failed step: its message is what the person running the smoke reads. */
class StepFailed extends Error {}

/** The platform's API: the platform host for operator calls, the organisation's for the rest. */
function client(platform, org) {
  const base = new URL(platform);
  // Node cannot resolve <org>.localhost everywhere: on localhost or an IP the organisation goes in X-ORG instead.
  const local = base.hostname === 'localhost' || /^[\d.]+$|:/.test(base.hostname);
  const orgBase = local ? base.origin : `${base.protocol}//${org}.${base.host}`;
  let token = null;
  async function call(method, url, body, headers = {}) {
    let res;
    try {
      res = await fetch(url, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'manual',
      });
    } catch (error) {
      throw new StepFailed(`cannot reach ${new URL(url).origin}: ${error.cause?.message ?? error.message}`);
    }
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, json, text, headers: res.headers };
  }
  return {
    orgBase,
    orgHeaders: local ? { 'x-org': org } : {},
    /** A URL on the organisation's host, as this machine can reach it (locally: the platform's origin with X-ORG). */
    reachable: (url) => (local ? `${base.origin}${new URL(url).pathname}${new URL(url).search}` : url),
    platform: (method, p, body, headers) => call(method, `${base.origin}${p}`, body, headers),
    org: (method, p, body) =>
      call(method, `${orgBase}/api/v1${p}`, body, { ...(local ? { 'x-org': org } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) }),
    signedIn(accessToken) {
      token = accessToken;
    },
  };
}

/** An API answer that is not the expected status fails the step with the server's own words. */
function expectStatus(answer, statuses, what) {
  if ([].concat(statuses).includes(answer.status)) return answer.json;
  const error = answer.json?.error;
  const detail = error ? `${error.code}: ${error.message}${error.fields ? ` ${JSON.stringify(error.fields)}` : ''}` : answer.text.slice(0, 300);
  throw new StepFailed(`${what}: HTTP ${answer.status} ${detail}`);
}

/** The smoke user's password: given, else derived from the operator token (meets the password policy). */
function smokePassword(operator) {
  if (process.env.SMOKE_PASSWORD) return process.env.SMOKE_PASSWORD;
  return `Sm0ke-${createHash('sha256').update(`relay-smoke:${operator}`).digest('base64url').slice(0, 20)}`;
}

function smtpIntegration(url) {
  const u = new URL(url);
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:') throw new StepFailed(`--smtp must be smtp://user:password@host:port (got ${u.protocol})`);
  const ssl = u.protocol === 'smtps:';
  return {
    name: 'Smoke check',
    type: 'smtp',
    details: { server: u.hostname, port: Number(u.port) || (ssl ? 465 : 587), ssl, tls: u.searchParams.get('starttls') === '1' },
    user: decodeURIComponent(u.username) || 'smoke',
    password: decodeURIComponent(u.password) || 'smoke',
  };
}

const wait = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, read) {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new StepFailed(`${what}: still not done after ${TIMEOUT_MS / 1000} s`);
    await wait(500);
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { org: { type: 'string' }, smtp: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, mailbox: { type: 'string' } },
  });
  const platformUrl = positionals[0];
  if (!platformUrl) throw new StepFailed(USAGE);
  const domain = (values.org ?? 'smoke-check').toLowerCase();
  const to = values.to ?? 'smoke-check@example.com';
  const operator = operatorToken();
  if (!operator) throw new StepFailed('No operator token: set OPERATOR_TOKEN (or put an OPERATOR_TOKEN line in .dev.vars).');
  const api = client(platformUrl, domain);
  const password = smokePassword(operator);
  const username = `smoke@${domain}.example`;
  const state = {};

  const steps = [
    [
      'platform answers',
      async () => {
        expectStatus(await api.platform('GET', '/api/health'), 200, 'GET /api/health');
        return platformUrl;
      },
    ],
    [
      'organisation',
      async () => {
        const made = await api.platform(
          'POST',
          '/api/v1/operator/organizations',
          { name: 'Smoke check', domain, user: { name: 'Smoke check', email: username, password } },
          { authorization: `Bearer ${operator}` },
        );
        expectStatus(made, [201, 409], 'making the smoke organisation (operator API)');
        return made.status === 201 ? `${domain} made` : `${domain} (made earlier)`;
      },
    ],
    [
      'sign in',
      async () => {
        const tokens = expectStatus(await api.org('POST', '/internal-auth/token-create', { username, password }), 200, `signing in as ${username}`);
        api.signedIn(tokens.access_token);
        return username;
      },
    ],
    [
      'integration',
      async () => {
        const list = expectStatus(await api.org('GET', '/integration?page_size=100'), 200, 'listing integrations');
        let integration = list.items.find((i) => i.type === 'smtp');
        if (!integration) {
          if (!values.smtp) throw new StepFailed('the smoke organisation has no SMTP integration: run once with --smtp smtp://user:password@host:port');
          integration = expectStatus(await api.org('POST', '/integration', smtpIntegration(values.smtp)), 201, 'making the SMTP integration').data;
        }
        state.integration = integration;
        const test = expectStatus(await api.org('POST', `/integration/${integration.id}/test`), 200, 'testing the SMTP connection').data;
        if (!test.ok)
          throw new StepFailed(
            `the SMTP integration "${integration.name}" (${integration.details.server}:${integration.details.port}) does not work: ${test.message}`,
          );
        return `${integration.name}: ${test.message}`;
      },
    ],
    [
      'contact',
      async () => {
        const name = `Smoke check ${new Date().toISOString()}`;
        state.contact = expectStatus(await api.org('POST', '/contact', { name, addresses: [{ type: 'email', value: to }] }), 201, 'creating a contact').data;
        return `#${state.contact.id} <${to}>`;
      },
    ],
    [
      'test message',
      async () => {
        const senders = expectStatus(await api.org('GET', '/sender?page_size=100'), 200, 'listing senders').items;
        let sender = senders.find((s) => s.type === 'email' && s.integration_id === state.integration.id);
        if (!sender) {
          const value = values.from ?? 'smoke@example.com';
          sender = expectStatus(
            await api.org('POST', '/sender', { integration_id: state.integration.id, type: 'email', value, name: 'Relay smoke check' }),
            201,
            'making the sender',
          ).data;
        }
        const templates = expectStatus(await api.org('GET', '/template?page_size=100'), 200, 'listing templates').items;
        let template = templates.find((t) => t.alias === 'smoke-check');
        if (!template) {
          template = expectStatus(
            await api.org('POST', '/template', {
              type: 'html',
              name: 'Smoke check',
              alias: 'smoke-check',
              subject: 'Relay smoke check',
              body: '<p>Hello {{ contact.name }}: this is Relay checking that mail goes out.</p><p><a href="https://example.com/">A tracked link</a></p>',
            }),
            201,
            'making the template',
          ).data;
        }
        const queued = expectStatus(
          await api.org('POST', `/template/${template.id}/test`, { sender_id: sender.id, to, contact_id: state.contact.id }),
          202,
          'sending the test message',
        ).data;
        state.message = await until('the test message', async () => {
          const m = expectStatus(await api.org('GET', `/message/${queued.id}`), 200, 'reading the test message').data;
          if (m.status === 'failed') throw new StepFailed(`the test message failed: ${m.error}`);
          return m.status === 'sent' ? m : null;
        });
        return `message #${state.message.id} sent (provider id ${state.message.external_id || '-'})`;
      },
    ],
    [
      'tracking pixel',
      async () => {
        if (!values.mailbox) {
          // No mailbox to read the delivered mail from: the tracking route must answer, refusing a token not signed by
          // the platform (the message's own pixel is in the mail only).
          const forged = await fetch(`${api.orgBase}/t/o/smoke-check`, { headers: api.orgHeaders });
          if (forged.status !== 404) throw new StepFailed(`the tracking route answered HTTP ${forged.status} to a forged pixel (expected 404)`);
          return "the tracking route answers (pass --mailbox to load the message's own pixel)";
        }
        const mailbox = values.mailbox.replace(/\/+$/, '');
        const mail = await until('the delivered mail in the mailbox', async () => {
          const list = await (await fetch(`${mailbox}/messages.json?limit=200`)).json();
          const found = list.find((m) => m.to.includes(to) && m.headers?.['message-id']?.includes(`relay-${state.message.id}@`));
          return found ? (await fetch(`${mailbox}/messages/${found.id}.json`)).json() : null;
        });
        const src = /<img[^>]+src="([^"]*\/t\/o\/[^"]+)"/.exec(mail.html)?.[1];
        if (!src) throw new StepFailed('the delivered mail has no tracking pixel (is open tracking off for the organisation?)');
        const pixel = await fetch(api.reachable(src.replaceAll('&amp;', '&')), {
          headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) relay-smoke', ...api.orgHeaders },
        });
        if (pixel.status !== 200) throw new StepFailed(`the message's pixel answered HTTP ${pixel.status}`);
        await until('the open on the message', async () => {
          const e = expectStatus(await api.org('GET', `/message/${state.message.id}/engagement`), 200, "reading the message's engagement").data;
          return e.hits?.some((h) => h.kind === 'open') ? e : null;
        });
        return "the message's own pixel loaded and its open counted";
      },
    ],
  ];

  let ok = true;
  for (const [name, run] of steps) {
    const started = Date.now();
    try {
      const detail = await run();
      console.log(`ok    ${name} (${Date.now() - started} ms): ${detail}`);
    } catch (error) {
      ok = false;
      console.log(`FAIL  ${name} (${Date.now() - started} ms): ${error instanceof StepFailed ? error.message : (error.stack ?? error)}`);
      break;
    }
  }
  // Each run's contact is removed again (the organisation, its integration and template stay for the next run).
  if (state.contact) await api.org('DELETE', `/contact/${state.contact.id}`).catch(() => {});
  console.log(ok ? 'smoke: every step passed' : 'smoke: FAILED');
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error instanceof StepFailed ? error.message : error);
  process.exitCode = 2;
});
