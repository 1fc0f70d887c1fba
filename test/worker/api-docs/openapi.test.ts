import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app';
import { UNDOCUMENTED_ROUTES } from '../../../src/modules/api-docs/operations';
import { call, createOrg, signIn } from '../helpers';

type Doc = {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[];
        operationId: string;
        responses: Record<string, unknown>;
        security?: unknown[];
        requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
      }
    >
  >;
  components: { securitySchemes: Record<string, Record<string, unknown>>; schemas: Record<string, unknown>; responses: Record<string, unknown> };
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * A Hono route path as the OpenAPI paths it stands for: `:id` is `{id}`, and a parameter limited to a few
 * literal values (`:type{smtp|twilio}`) is one concrete path per value.
 */
function openApiPaths(honoPath: string): string[] {
  let paths = [''];
  for (const segment of honoPath.split('/').slice(1)) {
    const param = /^:(\w+)(?:\{(.+)\})?$/.exec(segment);
    const literals = param?.[2] && /^[\w-]+(\|[\w-]+)*$/.test(param[2]) ? param[2].split('|') : null;
    const choices = !param ? [segment] : (literals ?? [`{${param[1]}}`]);
    paths = paths.flatMap((p) => choices.map((choice) => `${p}/${choice}`));
  }
  return paths;
}

/** Every method + path the app serves under /api/v1 (middleware-only `ALL` entries left out), OpenAPI style. */
function appRoutes(): { method: string; path: string }[] {
  const out = new Map<string, { method: string; path: string }>();
  for (const route of buildApp().routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/api/v1/') || route.path.includes('*')) continue;
    for (const path of openApiPaths(route.path.slice('/api/v1'.length))) {
      out.set(`${route.method} ${path}`, { method: route.method.toLowerCase(), path });
    }
  }
  return [...out.values()];
}

const isInternal = (path: string) => UNDOCUMENTED_ROUTES.some((pattern) => pattern.test(path));

describe('GET /api/openapi.json', () => {
  let doc: Doc;

  beforeAll(async () => {
    const res = await exports.default.fetch(new Request('http://localhost:8787/api/openapi.json'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    doc = await res.json();
  });

  it('is an OpenAPI 3.1 document with paths, components and both ways to authenticate', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.info.description).toContain('X-API-KEY');
    expect(doc.info.description).toContain('X-ORG');
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/api/v1' })]);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(40);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-KEY' });
    expect(doc.components.securitySchemes.organization).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-ORG' });
    expect(doc.components.securitySchemes.orgApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Organisation keys: how to send them, what the send scope allows (named from SEND_SCOPE_ROUTES), the 429.
    expect(doc.info.description).toContain('Authorization: Bearer rk_live_');
    expect(doc.info.description).toContain('`POST /send` and `POST /send/batch`');
    expect(doc.paths['/tag'].get.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
  });

  it('is well formed: paths start with /, ids unique, every path parameter declared, every $ref resolves', () => {
    const operationIds = new Set<string>();
    const refs: string[] = [];
    const collectRefs = (value: unknown) => {
      if (Array.isArray(value)) value.forEach(collectRefs);
      else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === '$ref' && typeof inner === 'string') refs.push(inner);
          else collectRefs(inner);
        }
      }
    };
    collectRefs(doc);
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(path.startsWith('/')).toBe(true);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [method, op] of Object.entries(item)) {
        expect(METHODS).toContain(method);
        expect(operationIds.has(op.operationId), op.operationId).toBe(false);
        operationIds.add(op.operationId);
        const declared = (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort();
        expect(declared, `${method} ${path}`).toEqual(templated);
        expect(
          Object.keys(op.responses).some((code) => /^[123]\d\d$/.test(code)),
          `${method} ${path}`,
        ).toBe(true);
        for (const media of Object.values(op.requestBody?.content ?? {})) {
          expect(media.schema.$schema).toBeUndefined();
        }
      }
    }
    expect(refs.length).toBeGreaterThan(0);
    for (const target of refs) {
      const [, section, name] = /^#\/components\/(\w+)\/(\w+)$/.exec(target) ?? [];
      expect((doc.components as Record<string, Record<string, unknown>>)[section]?.[name], target).toBeDefined();
    }
    // OpenAPI forbids two paths that differ only in parameter names.
    const shapes = Object.keys(doc.paths).map((p) => p.replace(/\{\w+\}/g, '{}'));
    expect(new Set(shapes).size).toBe(shapes.length);
  });

  it('describes bodies and list parameters from the zod contracts', () => {
    const createTag = doc.paths['/tag'].post.requestBody!.content['application/json'].schema;
    expect(createTag).toMatchObject({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false });
    const listContacts = doc.paths['/contact'].get.parameters!.map((p) => p.name);
    expect(listContacts).toEqual(expect.arrayContaining(['page', 'page_size', 'sort_by', 'sort_order', 'search', 'ids', 'tags', 'address', 'attributes']));
    const smtpCredentials = doc.paths['/integration/{id}/smtp/credentials'].patch.requestBody!.content['application/json'].schema;
    expect(Object.keys(smtpCredentials.properties as object)).toEqual(expect.arrayContaining(['user', 'password']));
    expect(doc.paths['/tag/priorities'].post).toBeDefined();
    expect(doc.paths['/internal-auth/token-create'].post.security).toEqual([{}, { organization: [] }]);
    expect(doc.paths['/tag'].get.security).toEqual([{ bearerAuth: [] }, { apiKey: [], organization: [] }, { orgApiKey: [], organization: [] }]);
  });

  it('covers every /api/v1 route of the app except the platform-internal ones', () => {
    const routes = appRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const missing = routes.filter((r) => !isInternal(r.path) && !doc.paths[r.path]?.[r.method]).map((r) => `${r.method.toUpperCase()} ${r.path}`);
    expect(missing).toEqual([]);
    // The exclusions are really there, so the list of them stays honest.
    expect(routes.some((r) => r.path.startsWith('/operator'))).toBe(true);
    expect(routes.filter((r) => isInternal(r.path)).every((r) => !doc.paths[r.path])).toBe(true);
  });

  it('documents only routes the app serves', () => {
    const served = new Set(appRoutes().map((r) => `${r.method} ${r.path}`));
    const extra = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
      .filter((key) => !served.has(key));
    expect(extra).toEqual([]);
  });

  it('describes the account answers as the routes really give them (every required key, no undocumented one)', async () => {
    const org = await createOrg('docs-shapes');
    const { access_token } = await signIn(org.domain, org.username);
    const json = async (path: string, init: Parameters<typeof call>[2] = {}) =>
      (await call(org.domain, path, { token: access_token, ...init })).json() as Promise<any>;
    const samples: [string, Record<string, unknown>][] = [
      ['CurrentUser', (await json('/api/v1/internal-user/me')).data],
      ['OrganizationSettings', (await json('/api/v1/organization')).data],
      ['Session', (await json('/api/v1/session')).items[0]],
      ['ApiKey', (await json('/api/v1/internal-api-key', { method: 'POST', json: { note: 'docs' } })).data],
      ['OrgApiKey', (await json('/api/v1/organization-api-key', { method: 'POST', json: { name: 'Docs', scope: 'send' } })).data],
    ];
    const schemas = doc.components.schemas as Record<string, { required: string[]; properties: Record<string, unknown> }>;
    for (const [name, sample] of samples) {
      expect(sample, name).toBeTruthy();
      const keys = Object.keys(sample);
      for (const key of schemas[name].required) expect(keys, `${name} lacks ${key}`).toContain(key);
      for (const key of keys) expect(Object.keys(schemas[name].properties), `${name}.${key} is not documented`).toContain(key);
    }
    const created = doc.paths['/internal-api-key'].post.responses['201'] as { content: Record<string, { schema: { properties: { data: { $ref: string } } } }> };
    expect(created.content['application/json'].schema.properties.data.$ref).toBe('#/components/schemas/ApiKey');
  });

  it('expands limited path parameters and names the others', () => {
    expect(openApiPaths('/integration/:id/:type{smtp|twilio}/credentials')).toEqual([
      '/integration/{id}/smtp/credentials',
      '/integration/{id}/twilio/credentials',
    ]);
    expect(openApiPaths('/template/:id/attachment/:attachmentId')).toEqual(['/template/{id}/attachment/{attachmentId}']);
    expect(openApiPaths('/x/:code{[0-9]+}')).toEqual(['/x/{code}']);
  });
});

describe('GET /api/swagger-ui', () => {
  it('is our page loading Swagger UI from this origin only, pointed at the description', async () => {
    const res = await exports.default.fetch(new Request('http://localhost:8787/api/swagger-ui'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<link rel="stylesheet" href="/api-docs/swagger-ui.css">');
    expect(html).toContain('<script src="/api-docs/swagger-ui-bundle.js"></script>');
    // No inline script (the policy forbids it): the start-up lines are a same-origin file.
    expect(html).not.toMatch(/<script>/);
    expect(html).toContain('<script src="/api/swagger-ui/init.js"></script>');
    const init = await exports.default.fetch(new Request('http://localhost:8787/api/swagger-ui/init.js'));
    expect(init.headers.get('content-type')).toContain('text/javascript');
    const script = await init.text();
    expect(script).toContain("url: '/api/openapi.json'");
    expect(script).toContain('SwaggerUIBundle(');
    // Every src and href is a same-origin path: no CDN, no other host.
    const urls = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThanOrEqual(2);
    for (const url of urls) expect(url).toMatch(/^\/(?!\/)/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('works on any host: no organisation is needed', async () => {
    const res = await exports.default.fetch(new Request('http://acme.localhost:8787/api/swagger-ui'));
    expect(res.status).toBe(200);
  });
});
