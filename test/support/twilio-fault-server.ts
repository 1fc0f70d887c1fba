// A small Twilio-shaped server for the answers the Prism mock cannot give. The API base a test uses picks the
// behaviour: {url}/{mode}/2010-04-01/Accounts/{sid}/... with mode one of
//   ok         201 with a message SID (and records the request)
//   http429    HTTP 429 without a Twilio code
//   code20429  HTTP 400 with Twilio code 20429 (Too Many Requests)
//   http500    HTTP 500 JSON; http503 HTTP 503 with an html body
//   timeout    never answers
//   invalid    HTTP 400 with code 21211 (invalid To number)
//   unauthorized HTTP 401 with code 20003
//   nosid      HTTP 201 without a sid
//   pages      IncomingPhoneNumbers in three pages of two, linked by next_page_uri
// GET {url}/requests lists what was received (method, path, authorization, form fields).
// POST {url}/hooks/... stands in for our webhook endpoints: it records each call (path, X-Twilio-Signature, form)
// for GET {url}/hooks, so a test can check the callbacks the SMS catcher plays.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { RunningServer } from './smtp-servers';

export interface RecordedHook {
  path: string;
  /** The query the callback URL carried (our StatusCallback names the message: ?m=<id>). */
  query: string;
  signature: string | null;
  form: [string, string][];
}

export interface RecordedRequest {
  mode: string;
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  form: Record<string, string>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** Starts the fault server on a free loopback port. */
export async function startTwilioFaultServer(): Promise<RunningServer & { url: string }> {
  const requests: RecordedRequest[] = [];
  const hooks: RecordedHook[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/requests') return json(res, 200, requests);
    if (url.pathname === '/hooks' && req.method === 'GET') return json(res, 200, hooks);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (url.pathname.startsWith('/hooks/')) {
      const signature = req.headers['x-twilio-signature'];
      hooks.push({
        path: url.pathname,
        query: url.search,
        signature: typeof signature === 'string' ? signature : null,
        form: [...new URLSearchParams(Buffer.concat(chunks).toString('utf8'))],
      });
      res.writeHead(204);
      return res.end();
    }
    const match = /^\/([a-z0-9]+)\/2010-04-01\/Accounts\/([^/]+)\/(Messages|IncomingPhoneNumbers)\.json$/.exec(url.pathname);
    if (!match) return json(res, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
    const [, mode, sid, resource] = match;
    requests.push({
      mode,
      method: req.method ?? '',
      path: url.pathname + url.search,
      authorization: req.headers.authorization ?? null,
      contentType: req.headers['content-type'] ?? null,
      form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
    });
    switch (mode) {
      case 'ok':
        return json(res, 201, { sid: `SM${randomBytes(16).toString('hex')}`, status: 'queued', account_sid: sid });
      case 'http429':
        return json(res, 429, { message: 'Too many requests', status: 429 });
      case 'code20429':
        return json(res, 400, { code: 20429, message: 'Too Many Requests', more_info: 'https://www.twilio.com/docs/errors/20429', status: 400 });
      case 'http500':
        return json(res, 500, { code: 20500, message: 'Internal Server Error', status: 500 });
      case 'http503':
        res.writeHead(503, { 'content-type': 'text/html' });
        return res.end('<html><body>Service Unavailable</body></html>');
      case 'timeout':
        hanging.add(res);
        return;
      case 'invalid':
        return json(res, 400, {
          code: 21211,
          message: `The 'To' number ${new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('To')} is not a valid phone number.`,
          more_info: 'https://www.twilio.com/docs/errors/21211',
          status: 400,
        });
      case 'unauthorized':
        return json(res, 401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 });
      case 'nosid':
        return json(res, 201, { status: 'queued' });
      case 'pages': {
        if (resource !== 'IncomingPhoneNumbers') return json(res, 405, { message: 'pages mode lists numbers only' });
        const page = Number(url.searchParams.get('Page') ?? 0);
        const numbers = [0, 1].map((k) => {
          const n = page * 2 + k;
          return {
            sid: `PN${String(n).padStart(32, '0')}`,
            phone_number: `+1555000010${n}`,
            friendly_name: `Line ${n}`,
            capabilities: { sms: true, mms: false, voice: true },
          };
        });
        const next = page < 2 ? `/2010-04-01/Accounts/${sid}/IncomingPhoneNumbers.json?PageSize=2&Page=${page + 1}&PageToken=PT${page + 1}` : null;
        return json(res, 200, { incoming_phone_numbers: numbers, next_page_uri: next, page, page_size: 2 });
      }
      default:
        return json(res, 404, { message: `unknown mode ${mode}` });
    }
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
