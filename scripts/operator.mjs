#!/usr/bin/env node
// The operator's command line: calls the operator API (/api/v1/operator) of a running platform.
//   npm run operator -- requests [pending|approved|declined]
//   npm run operator -- approve <id> [note]      npm run operator -- decline <id> [note]
//   npm run operator -- settings                 npm run operator -- set <key> <value>
//   npm run operator -- demo-reset
//   npm run operator -- api-limits <domain> [key-rps=<n>] [key-mph=<n>] [org-rps=<n>] [org-mph=<n>]
// OPERATOR_URL (default http://localhost:8787) is the platform host; the token is OPERATOR_TOKEN, else the
// OPERATOR_TOKEN line of .dev.vars. Plain Node, no dependencies.
import { operatorToken } from './lib/operator-token.mjs';

const USAGE = `Usage: npm run operator -- <command>
  requests [pending|approved|declined]   list pre-registration requests
  approve <id> [note]                    approve a request (mails the invitation)
  decline <id> [note]                    decline a request (mails the outcome)
  settings                               show the sign-up settings
  set <key> <value>                      change a setting: signup.enabled|signup.active true|false, signup.applicationUrl <url>
  demo-reset                             reset the shared demo organisation now
  api-limits <domain> [name=<n> ...]     show an organisation's API key limits, or change them:
                                         key-rps, key-mph (each key's requests per second, messages per hour),
                                         org-rps, org-mph (the same for all the organisation's keys together)`;

/** The command line's short names of the API key limits, and the API's. */
const LIMIT_NAMES = {
  'key-rps': 'key_requests_per_second',
  'key-mph': 'key_messages_per_hour',
  'org-rps': 'org_requests_per_second',
  'org-mph': 'org_messages_per_hour',
};

/** `key-rps=5 org-mph=1000` as the API's body; a name or number it does not know ends the command (the API checks the ranges). */
function limitChanges(pairs) {
  const body = {};
  for (const pair of pairs) {
    const match = /^([a-z-]+)=(\d+)$/.exec(pair);
    const name = match && LIMIT_NAMES[match[1]];
    if (!name) fail(`Not a limit: ${pair}. Use ${Object.keys(LIMIT_NAMES).join(', ')} with a whole number, e.g. key-rps=20`);
    body[name] = Number(match[2]);
  }
  return body;
}

function printLimits(limits) {
  console.log(`${limits.domain}: API key limits`);
  for (const [short, name] of Object.entries(LIMIT_NAMES))
    console.log(`  ${short.padEnd(8)} ${String(limits[name]).padStart(10)}  ${name.replaceAll('_', ' ')}`);
}

/** One operator API call; prints the error envelope and exits non-zero on failure. */
async function api(method, apiPath, body) {
  const base = (process.env.OPERATOR_URL || 'http://localhost:8787').replace(/\/+$/, '');
  const token = operatorToken();
  if (!token) fail('No operator token: set OPERATOR_TOKEN (or put an OPERATOR_TOKEN line in .dev.vars).');
  let res;
  try {
    res = await fetch(`${base}/api/v1/operator${apiPath}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    fail(`Cannot reach ${base}: ${error.cause?.message ?? error.message}`);
  }
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  if (!res.ok) {
    const err = json?.error;
    const fields = err?.fields
      ? Object.entries(err.fields)
          .map(([k, v]) => `\n  ${k}: ${v.join(' ')}`)
          .join('')
      : '';
    fail(`${res.status} ${err?.code ?? ''} ${err?.message ?? text}${fields}`.trim());
  }
  return json?.data ?? json;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

function printRequests(rows) {
  if (rows.length === 0) return console.log('No requests.');
  for (const r of rows) {
    console.log(`#${r.id}  ${r.status.padEnd(8)}  ${r.created_at}  ${r.name} <${r.email}>  ${r.organization}${r.domain ? ` (${r.domain})` : ''}`);
    console.log(`      ${r.comments.replace(/\s+/g, ' ')}`);
    if (r.review_note) console.log(`      note: ${r.review_note}`);
  }
}

/** A setting's value from the command line: booleans for the switches, the URL as given. */
function settingValue(key, raw) {
  if (key === 'signup.enabled' || key === 'signup.active') {
    if (/^(true|1|yes|on)$/i.test(raw)) return true;
    if (/^(false|0|no|off)$/i.test(raw)) return false;
    fail(`${key} takes true or false`);
  }
  return raw;
}

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'requests': {
    const status = args[0];
    if (status && !['pending', 'approved', 'declined'].includes(status)) fail('Status is pending, approved or declined.');
    printRequests(await api('GET', `/pre-registrations${status ? `?status=${status}` : ''}`));
    break;
  }
  case 'approve':
  case 'decline': {
    const [id, ...note] = args;
    if (!/^\d+$/.test(id ?? '')) fail(`Usage: npm run operator -- ${command} <id> [note]`);
    const text = note.join(' ').trim();
    const row = await api('POST', `/pre-registrations/${id}/${command}`, text ? { note: text } : {});
    console.log(`#${row.id} ${row.status}: ${row.name} <${row.email}> has been emailed.`);
    break;
  }
  case 'settings':
    console.log(JSON.stringify(await api('GET', '/settings'), null, 2));
    break;
  case 'set': {
    const [key, ...rest] = args;
    if (!key || rest.length === 0) fail('Usage: npm run operator -- set <key> <value>');
    console.log(JSON.stringify(await api('PUT', '/settings', { [key]: settingValue(key, rest.join(' ')) }), null, 2));
    break;
  }
  case 'api-limits': {
    const [domain, ...pairs] = args;
    if (!domain || !/^[a-z0-9-]+$/.test(domain)) fail('Usage: npm run operator -- api-limits <domain> [key-rps=<n>] [key-mph=<n>] [org-rps=<n>] [org-mph=<n>]');
    const path = `/organizations/${domain}/api-limits`;
    printLimits(pairs.length ? await api('PUT', path, limitChanges(pairs)) : await api('GET', path));
    break;
  }
  case 'demo-reset':
    console.log(JSON.stringify(await api('POST', '/demo/reset', {}), null, 2));
    break;
  default:
    console.log(USAGE);
    if (command && command !== 'help' && command !== '--help') process.exit(1);
}
