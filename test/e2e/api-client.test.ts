import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import openapiTS, { astToString } from 'openapi-typescript';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { requestWithHost } from '../../scripts/lib/http.mjs';
import { SEED_ORG, SEED_USER } from '../../scripts/lib/seed-data.mjs';

// The API as a product (issue: "an OpenAPI document a client can be generated from"): a typed client is
// generated from the running platform's /api/openapi.json with openapi-typescript, and a small program that
// uses it is typechecked against the platform's real answers. Every answer is also checked against the
// document's schema, so a schema that lies about an answer fails here even where TypeScript would let it pass.

const port = inject('port');
const host = `${SEED_ORG.domain}.localhost:${port}`;
const root = path.resolve(import.meta.dirname, '../..');
let token = '';

async function api(method: string, apiPath: string, json?: unknown) {
  const res = await requestWithHost(port, host, method, `/api/v1${apiPath}`, { json, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const body = res.body ? JSON.parse(res.body) : null;
  expect(res.status, `${method} ${apiPath}: ${res.body}`).toBeLessThan(300);
  return body;
}

/** The answers the program is typechecked against, by the documented path they came from (all GETs). */
const answers: Record<string, unknown> = {};

describe('a typed client generated from /api/openapi.json', () => {
  let doc: { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

  beforeAll(async () => {
    const res = await requestWithHost(port, host, 'GET', '/api/openapi.json');
    doc = JSON.parse(res.body);
    token = (await api('POST', '/internal-auth/token-create', { username: SEED_USER.username, password: SEED_USER.password })).access_token;

    // One of each entity, so every list below has rows of its own to check.
    const suffix = Date.now().toString(36);
    const tag = await api('POST', '/tag', { name: `Client ${suffix}` });
    const field = await api('POST', '/field', { name: `Plan ${suffix}`, alias: `plan_${suffix}`, type: 'select', options: [{ value: 'Gold' }] });
    const subscription = await api('POST', '/subscription', { name: `News ${suffix}` });
    const contact = await api('POST', '/contact', {
      name: 'Typed Client',
      addresses: [{ type: 'email', value: `typed-${suffix}@example.com` }],
      tags: [tag.data.id],
      attributes: [{ field_id: field.data.id, value: { option_id: field.data.options[0].id } }],
    });
    await api('POST', '/blacklist', { type: 'email', value: `blocked-${suffix}@example.com` });
    const template = (await api('GET', '/template?page_size=100')).items.find((t: { type: string }) => t.type !== 'text');
    const sender = (await api('GET', '/sender?page_size=100')).items.find((s: { type: string }) => s.type === 'email');
    await api('POST', '/campaign', { name: `Campaign ${suffix}`, settings: [{ template_id: template.id, sender_id: sender.id }] });
    await api('POST', `/template/${template.id}/test`, { sender_id: sender.id, to: `typed-${suffix}@example.com` });
    const broadcast = await api('POST', '/broadcast', {
      name: `Typed ${suffix}`,
      type: 'email',
      template_id: template.id,
      sender_id: sender.id,
      subscription_id: subscription.data.id,
      contacts: { filter: { ids: [contact.data.id] } },
    });

    const reads: [string, string][] = [
      ['/tag', '/tag'],
      ['/field', '/field'],
      ['/subscription', '/subscription'],
      ['/contact', '/contact'],
      ['/contact/{id}', `/contact/${contact.data.id}`],
      ['/blacklist', '/blacklist'],
      ['/activity-log', '/activity-log'],
      ['/integration', '/integration'],
      ['/sender', '/sender'],
      ['/template', '/template'],
      ['/template/{id}', `/template/${template.id}`],
      ['/campaign', '/campaign'],
      ['/message', '/message'],
      ['/broadcast', '/broadcast'],
      ['/broadcast/{id}', `/broadcast/${broadcast.data.id}`],
      ['/organization', '/organization'],
      ['/internal-user/me', '/internal-user/me'],
    ];
    for (const [documented, actual] of reads) answers[documented] = await api('GET', actual);
    const message = (answers['/message'] as { items: { id: number }[] }).items[0];
    answers['/message/{id}'] = await api('GET', `/message/${message.id}`);
  });

  it('describes every entity answer: each real answer matches the schema the document gives it', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    for (const [documented, answer] of Object.entries(answers)) {
      const schema = (doc.paths[documented].get as { responses: Record<string, { content: Record<string, { schema: { $ref?: string } }> }> }).responses['200']
        .content['application/json'].schema;
      const validate = ajv.compile(withDocRefs(schema));
      const ok = validate(answer);
      expect(ok, `${documented}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      // Not the generic `{ data }` any more: the item or the rows are described.
      expect(JSON.stringify(schema)).toMatch(/#\/components\/schemas\/(?!ItemResponse|ListResponse)/);
    }
  });

  it('generates a client with openapi-typescript, and a program using it typechecks against the real answers', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'relay-api-client-'));
    // Read-only types, so the answers can be written as exact literals (`as const`): an enum value stays its word.
    writeFileSync(path.join(dir, 'api.ts'), astToString(await openapiTS(doc as never, { immutable: true })));
    const writeAnswers = (value: unknown) =>
      writeFileSync(path.join(dir, 'answers.ts'), `export const answers = ${JSON.stringify(value, null, 1)} as const;\n`);
    writeAnswers(answers);
    writeFileSync(path.join(dir, 'program.ts'), PROGRAM);
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler', target: 'es2022', skipLibCheck: true, types: [] },
        files: ['program.ts'],
      }),
    );
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    const run = promisify(execFile);
    const result = await run(process.execPath, [tsc, '-p', dir]).then(
      () => ({ ok: true, output: '' }),
      (error: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
    );
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);

    // The check can fail: the same program against an answer that breaks the contract does not typecheck.
    const broken = structuredClone(answers) as Record<string, { items: Record<string, unknown>[] }>;
    broken['/tag'].items[0].priority = 'first';
    writeAnswers(broken);
    const refused = await run(process.execPath, [tsc, '-p', dir]).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    expect(refused).toMatch(/program\.ts.*error TS2322/);
  });
});

/** The schema with its component references pointed into the document added to Ajv as 'doc'. */
function withDocRefs(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as Record<string, unknown>;
}

/**
 * What a client writer would do with the generated types: name the answers of the calls it makes and use their
 * fields. Each real answer (answers.ts) is assigned to the type the client gives that call.
 */
const PROGRAM = `import type { components, paths } from './api';
import { answers } from './answers';

type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;
type Schemas = components['schemas'];

const tags: Ok<'/tag', 'get'> = answers['/tag'];
const fields: Ok<'/field', 'get'> = answers['/field'];
const subscriptions: Ok<'/subscription', 'get'> = answers['/subscription'];
const contacts: Ok<'/contact', 'get'> = answers['/contact'];
const contact: Ok<'/contact/{id}', 'get'> = answers['/contact/{id}'];
const blacklist: Ok<'/blacklist', 'get'> = answers['/blacklist'];
const activity: Ok<'/activity-log', 'get'> = answers['/activity-log'];
const integrations: Ok<'/integration', 'get'> = answers['/integration'];
const senders: Ok<'/sender', 'get'> = answers['/sender'];
const templates: Ok<'/template', 'get'> = answers['/template'];
const template: Ok<'/template/{id}', 'get'> = answers['/template/{id}'];
const campaigns: Ok<'/campaign', 'get'> = answers['/campaign'];
const messages: Ok<'/message', 'get'> = answers['/message'];
const message: Ok<'/message/{id}', 'get'> = answers['/message/{id}'];
const broadcasts: Ok<'/broadcast', 'get'> = answers['/broadcast'];
const broadcast: Ok<'/broadcast/{id}', 'get'> = answers['/broadcast/{id}'];
const organization: Ok<'/organization', 'get'> = answers['/organization'];
const me: Ok<'/internal-user/me', 'get'> = answers['/internal-user/me'];

// Using the fields, typed: a wrong name or type here is an error too.
const tagNames: string[] = tags.items.map((tag: Schemas['Tag']) => tag.name);
const total: number = tags.meta.total + fields.meta.total + subscriptions.meta.total + blacklist.meta.total + activity.meta.total;
const addresses: string[] = contacts.items.flatMap((c) => c.addresses.map((a) => a.type + ':' + a.value));
const options: number[] = fields.items.flatMap((f) => f.options.map((o) => o.id));
const tagged: number[] = contact.data.tags.map((t) => t.id);
const smtp: string[] = integrations.items.map((i) => i.type + ' ' + i.status);
const from: (string | null)[] = senders.items.map((s) => s.name);
const bodies: string = template.data.body + templates.items.map((t) => t.name).join();
const entries: number[] = campaigns.items.flatMap((c) => c.settings.map((s) => s.sender_id));
const opens: number = messages.items.reduce((sum, m) => sum + m.opens_total, 0) + message.data.clicks_total;
const progress: number = broadcast.data.sent + broadcast.data.engagement.human_opens + broadcasts.meta.total;
const org: string = organization.data.domain + me.data.username;
export const used = [tagNames, total, addresses, options, tagged, smtp, from, bodies, entries, opens, progress, org];
`;
