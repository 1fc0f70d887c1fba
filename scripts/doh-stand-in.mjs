// The local DNS-over-HTTPS stand-in: answers the JSON API (GET /dns-query?name=&type=, application/dns-json, the
// shape of Cloudflare's and Google's resolvers) from a JSON file, so the sending-domain checks work offline.
//
//   node scripts/doh-stand-in.mjs       http://127.0.0.1:8028/dns-query (DOH_PORT), zone file .local/dns.json (DOH_FILE)
//
// Point the worker at it with DNS_RESOLVER_URL=http://127.0.0.1:8028/dns-query. The file maps "<name> <TYPE>" to the
// records there, or to a failure to play:
//
//   {
//     "acme.test TXT": ["v=spf1 include:relay.example ~all"],               one record per entry
//     "s1._domainkey.acme.test TXT": [["v=DKIM1; k=rsa; p=MIIB...", "..."]], a record given as its strings
//     "mail.acme.test CNAME": ["acme.test"],
//     "broken.acme.test TXT": { "status": "SERVFAIL" }                       or REFUSED, NXDOMAIN, TIMEOUT (no answer)
//   }
//
// It resolves like a recursive resolver: a CNAME at the name is followed and given with the target's records, a
// name with no records of the type (or only names below it) is NOERROR without answers, any other is NXDOMAIN. The
// file is read on every question, so what the seed (or a person) writes takes effect at once; a file that is not
// such JSON answers SERVFAIL, so a check says "could not check" rather than "missing".
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, TXT: 16, AAAA: 28 };
const RCODES = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 };
const MAX_CNAME_HOPS = 8;
const TTL = 60;

const normalizeName = (name) => name.trim().toLowerCase().replace(/\.$/, '');
const typeName = (type) => (/^\d+$/.test(type) ? Object.keys(TYPES).find((k) => TYPES[k] === Number(type)) : type.toUpperCase());

/** A TXT record's data as the JSON API gives it: each character-string (at most 255 bytes) quoted and escaped. */
function txtData(record) {
  const strings = Array.isArray(record) ? record.map(String) : splitBytes(String(record));
  return strings.map((s) => `"${s.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`).join(' ');
}

function splitBytes(value) {
  const strings = [];
  let current = '';
  for (const ch of value) {
    if (Buffer.byteLength(current + ch) > 255) {
      strings.push(current);
      current = '';
    }
    current += ch;
  }
  strings.push(current);
  return strings;
}

/** Reads the zone file: a map of "<name> <TYPE>" to records or a failure; null when it is not such JSON. */
async function readZone(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return new Map(); // nothing published yet: every name is NXDOMAIN
    return null;
  }
  try {
    const json = JSON.parse(text);
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
    const zone = new Map();
    for (const [key, value] of Object.entries(json)) {
      const [name, type, ...rest] = key.trim().split(/\s+/);
      if (!name || !type || rest.length) return null;
      if (!Array.isArray(value) && !(value && typeof value.status === 'string')) return null;
      zone.set(`${normalizeName(name)} ${type.toUpperCase()}`, value);
    }
    return zone;
  } catch {
    return null;
  }
}

/** The answer to one question from the zone: a response code and answer records, or 'TIMEOUT'. */
function resolve(zone, qname, qtype) {
  const answer = [];
  let name = qname;
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const entry = zone.get(`${name} ${qtype}`);
    if (entry && !Array.isArray(entry)) {
      if (entry.status === 'TIMEOUT') return 'TIMEOUT';
      return { status: RCODES[entry.status] ?? RCODES.SERVFAIL, answer };
    }
    if (entry) {
      const data = (record) => {
        if (qtype === 'TXT') return txtData(record);
        return qtype === 'CNAME' ? `${normalizeName(String(record))}.` : String(record);
      };
      answer.push(...entry.map((record) => ({ name: `${name}.`, type: TYPES[qtype] ?? 0, TTL, data: data(record) })));
      return { status: RCODES.NOERROR, answer };
    }
    const alias = zone.get(`${name} CNAME`);
    if (qtype === 'CNAME' || !Array.isArray(alias) || alias.length === 0) break;
    const target = normalizeName(String(alias[0]));
    answer.push({ name: `${name}.`, type: TYPES.CNAME, TTL, data: `${target}.` });
    name = target;
  }
  // A name with records of other types, or with names below it (an empty non-terminal), exists.
  const exists = [...zone.keys()].some((key) => {
    const owner = key.slice(0, key.lastIndexOf(' '));
    return owner === name || owner.endsWith(`.${name}`);
  });
  return { status: exists ? RCODES.NOERROR : RCODES.NXDOMAIN, answer };
}

function handler(file) {
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/dns-query') return res.writeHead(404).end();
    if (req.method !== 'GET') return res.writeHead(405, { allow: 'GET' }).end();
    const rawName = url.searchParams.get('name');
    const type = typeName(url.searchParams.get('type') ?? 'A');
    if (!rawName || !TYPES[type]) {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: 'name and a known type are required' }));
    }
    const name = normalizeName(rawName);
    const zone = await readZone(file);
    if (!zone) console.error(`DoH stand-in: ${file} is not a zone file ({"<name> <TYPE>": [records]}); answering SERVFAIL`);
    const result = zone ? resolve(zone, name, type) : { status: RCODES.SERVFAIL, answer: [] };
    if (result === 'TIMEOUT') return; // never answered; the connection closes with the server
    const body = { Status: result.status, TC: false, RD: true, RA: true, AD: false, CD: false, Question: [{ name: `${name}.`, type: TYPES[type] }] };
    if (result.answer.length) body.Answer = result.answer;
    res.writeHead(200, { 'content-type': 'application/dns-json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
}

/** Starts the stand-in on 127.0.0.1:port (0: a free port) answering from `file`; its url is the resolver URL. */
export async function startDohStandIn({ port = 8028, file = path.join(ROOT, '.local', 'dns.json') } = {}) {
  const server = http.createServer(handler(file));
  const bound = await new Promise((resolve, reject) => {
    const onError = (err) => reject(new Error(`The DoH stand-in could not listen on 127.0.0.1:${port}: ${err.message}`));
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(server.address().port);
    });
  });
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}/dns-query`,
    file,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const standIn = await startDohStandIn({
    port: Number(process.env.DOH_PORT) || 8028,
    file: process.env.DOH_FILE ? path.resolve(process.env.DOH_FILE) : undefined,
  });
  console.log(`DoH stand-in: ${standIn.url} (DNS_RESOLVER_URL), zone file ${standIn.file}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => standIn.close().then(() => process.exit(0)));
}
