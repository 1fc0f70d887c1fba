import type { z } from 'zod';
import { API_KEY_HEADER } from '../../shared/contracts/account';
import { idempotencyKeyParameter, idempotencyResponses, idempotentReplayedHeader } from '../idempotency/openapi';
import { SEND_SCOPE_ROUTES } from '../../shared/contracts/org-api-key';
import { API_OPERATIONS, type ApiOperation } from './operations';
import { ANSWER_SCHEMAS } from './answer-schemas';
import { zodJsonSchema, type Json } from './json-schema';
import { eventComponents, webhooksObject } from './webhooks';

// Builds the OpenAPI 3.1 description of /api/v1 from the operation list and the zod contracts (zod 4's
// z.toJSONSchema; JSON Schema 2020-12 is OpenAPI 3.1's dialect).

const DESCRIPTION = `The API of the messaging platform: contacts, templates, integrations, messages and the account.

**Organisation.** Every call is made for one organisation: on its own host (\`https://<domain>.example.com/api/v1\`) or,
from anywhere else, with the header \`X-ORG: <domain>\` (the organisation's subdomain, e.g. \`acme\`). Sign-up and
pre-registration are made on the bare platform host and name no organisation.

**Authentication.** Either a bearer access token from \`POST /internal-auth/token-create\` (header
\`Authorization: Bearer <access_token>\`, refreshed with \`POST /internal-auth/token-refresh\`), or an API key created
under *My account → API*: send \`${API_KEY_HEADER}: <username>:<key>\` together with \`X-ORG: <domain>\`.
In this page, use **Authorize** to set them once for every call.

**Organisation API keys** (for the organisation's software; made under *My account → Organisation API keys* or with
\`POST /organization-api-key\`): send \`Authorization: Bearer rk_live_...\` (or \`rk_test_...\`, a test key that never
delivers) with \`X-ORG: <domain>\`. A key works only for its own organisation (403 \`wrong_organization\`). Its scope
decides what it may call, else 403 \`scope\`: **send** only ${SEND_SCOPE_ROUTES.map((r) => `\`${r.method} ${r.path}\``).join(' and ')};
**read** only GET; **full** what a personal key may. Keys have no user, so the account's own calls refuse them. Each key
and the organisation as a whole have limits of requests per second and messages per hour (set by the operator): a call
past one answers 429 \`rate_limited\` with \`Retry-After\` (seconds) and a message naming the limit.

**Shapes.** An item answers \`{ "data": ... }\`; a list answers \`{ "items": [...], "meta": { total, page, page_size,
total_pages } }\`; an error answers \`{ "error": { code, message, fields? } }\`, with per-field messages on 422.`;

/** A zod schema as JSON Schema for a request (what the client sends); parts zod cannot express become `{}`. */
function jsonSchema(schema: z.ZodType): Json {
  const out = zodJsonSchema(schema, 'input');
  // Preprocessed values (e.g. one query value or many) have no input shape: describe what they become.
  return Object.keys(out).length === 0 ? zodJsonSchema(schema, 'output') : out;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: Json) => ({ 'application/json': { schema } });

/** Path parameters that are row ids (numbers), except where the id is text (sessions, sign-ups). */
const NUMERIC_PARAM = /^(id|\w+Id)$/;
const TEXT_ID_PATHS = /^\/(session|signup)\//;

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: NUMERIC_PARAM.test(name) && !TEXT_ID_PATHS.test(path) ? { type: 'integer', minimum: 1 } : { type: 'string' },
  }));
}

function queryParameters(query: z.ZodObject): Json[] {
  const schema = jsonSchema(query) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as Json & { description?: string };
    const isArray = rest.type === 'array';
    return {
      name,
      in: 'query',
      required: schema.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
      ...(isArray ? { style: 'form', explode: true } : {}),
    };
  });
}

function requestBody(body: NonNullable<ApiOperation['body']>): Json {
  if (body === 'binary') return { required: true, content: { 'text/csv': { schema: { type: 'string', contentMediaType: 'text/csv' } } } };
  if (body === 'multipart') {
    return {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { type: 'object', properties: { file: { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
        },
      },
    };
  }
  return { required: true, content: jsonContent(jsonSchema(body)) };
}

function successResponse(op: ApiOperation): Json {
  switch (op.response ?? 'item') {
    case 'list':
      if (op.data) {
        const page = { type: 'object', required: ['items', 'meta'], properties: { items: { type: 'array', items: ref(op.data) }, meta: ref('ListMeta') } };
        return { description: 'The list', content: jsonContent(page) };
      }
      return { description: 'A page of the list', content: jsonContent(ref('ListResponse')) };
    case 'tokens':
      return { description: 'A new token pair', content: jsonContent(ref('TokenResponse')) };
    case 'file':
      return { description: 'The file', content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
    case 'events':
      return { description: 'A page of the event stream', content: jsonContent(ref('EventsPage')) };
    case 'websocket':
      return { description: 'Switching protocols: the live-update WebSocket' };
    default:
      if (op.data) return { description: 'Done', content: jsonContent({ type: 'object', required: ['data'], properties: { data: ref(op.data) } }) };
      return { description: 'Done', content: jsonContent(ref('ItemResponse')) };
  }
}

/** One operation of the document (exported for the tests of what a flag adds). */
export function operationObject(op: ApiOperation): Json {
  const access = op.access ?? 'user';
  const success = successResponse(op);
  const responses: Json = { [String(op.status ?? 200)]: op.idempotent ? { ...success, headers: idempotentReplayedHeader() } : success };
  if (op.body || op.query) responses['422'] = { $ref: '#/components/responses/ValidationFailed' };
  if (access === 'user') {
    responses['401'] = { $ref: '#/components/responses/Unauthorized' };
    responses['403'] = { $ref: '#/components/responses/Forbidden' };
    responses['429'] = { $ref: '#/components/responses/TooManyRequests' };
  }
  if (access !== 'platform' || op.path.includes('{')) responses['404'] = { $ref: '#/components/responses/NotFound' };
  if (op.idempotent) Object.assign(responses, idempotencyResponses(ref('Error')));
  responses.default = { $ref: '#/components/responses/Error' };

  const security =
    access === 'user'
      ? [{ bearerAuth: [] }, { apiKey: [], organization: [] }, { orgApiKey: [], organization: [] }]
      : access === 'guest'
        ? [{}, { organization: [] }]
        : [];
  return {
    tags: [op.tag],
    summary: op.summary,
    operationId: `${op.method}${op.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
    security,
    parameters: [...pathParameters(op.path), ...(op.query ? queryParameters(op.query) : []), ...(op.idempotent ? [idempotencyKeyParameter()] : [])],
    ...(op.body ? { requestBody: requestBody(op.body) } : {}),
    responses,
  };
}

const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', examples: ['validation_failed', 'not_found', 'unauthorized', 'demo_locked'] },
        message: { type: 'string' },
        fields: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Field path to its messages (422)' },
        request_id: { type: 'string' },
      },
    },
  },
};

const errorResponse = (description: string) => ({ description, content: jsonContent(ref('Error')) });

/** The OpenAPI 3.1 document of /api/v1, for /api/openapi.json and the Swagger UI. */
export function buildOpenApiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const op of API_OPERATIONS) {
    paths[op.path] ??= {};
    paths[op.path][op.method] = operationObject(op);
  }
  const tags = [...new Set(API_OPERATIONS.map((op) => op.tag))].map((name) => ({ name }));
  return {
    openapi: '3.1.0',
    info: { title: 'Relay messaging API', version, description: DESCRIPTION },
    servers: [{ url: '/api/v1', description: 'This platform (on an organisation host, or with X-ORG)' }],
    tags,
    paths,
    webhooks: webhooksObject(),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access_token of POST /internal-auth/token-create' },
        orgApiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'rk_live_... or rk_test_...',
          description: "An organisation API key (POST /organization-api-key); send X-ORG with it, or call on the organisation's host",
        },
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'An API key as `<username>:<key>`; send X-ORG with it' },
        organization: { type: 'apiKey', in: 'header', name: 'X-ORG', description: "The organisation's domain (subdomain), e.g. acme" },
      },
      schemas: {
        Error: errorSchema,
        ...eventComponents(),
        ItemResponse: { type: 'object', required: ['data'], properties: { data: {} } },
        ...Object.fromEntries(Object.entries(ANSWER_SCHEMAS).map(([name, schema]) => [name, zodJsonSchema(schema, 'output')])),
        Deleted: { type: 'object', required: ['deleted'], properties: { deleted: { type: 'integer', description: 'Rows deleted: 1' } } },
        BulkDeleted: {
          type: 'object',
          required: ['deleted'],
          properties: { deleted: { type: 'integer' }, more: { type: 'boolean', description: 'With "all": true, whether matching rows remain (repeat)' } },
        },
        Reordered: { type: 'object', required: ['updated'], properties: { updated: { type: 'integer' } } },
        ListMeta: {
          type: 'object',
          required: ['total', 'page', 'page_size', 'total_pages'],
          properties: {
            total: {
              type: 'integer',
              description: 'Exact for a whole list, one tag and one broadcast; otherwise at most the cap, 10,000 by default (see total_capped)',
            },
            total_capped: { type: 'boolean', const: true, description: 'Present when counting stopped at the cap: there are more than total' },
            page: { type: 'integer' },
            page_size: { type: 'integer' },
            total_pages: { type: 'integer' },
          },
        },
        ListResponse: {
          type: 'object',
          required: ['items', 'meta'],
          properties: { items: { type: 'array', items: { type: 'object' } }, meta: ref('ListMeta') },
        },
        TokenResponse: {
          type: 'object',
          required: ['access_token', 'refresh_token', 'expires_in', 'auth_type_id'],
          properties: {
            access_token: { type: 'string' },
            refresh_token: { type: 'string' },
            expires_in: { type: 'integer', description: 'Seconds until the access token expires' },
            auth_type_id: { type: 'integer' },
          },
        },
      },
      responses: {
        ValidationFailed: errorResponse('Some fields are filled incorrectly: error.fields has the messages per field'),
        Unauthorized: errorResponse('No valid access token or API key'),
        Forbidden: errorResponse(
          "Not allowed (e.g. a feature locked in the shared demo; an organisation key beyond its scope, or on another organisation's host)",
        ),
        TooManyRequests: {
          description: "An organisation key's limit, or its organisation's, is spent: wait the Retry-After seconds",
          headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait' } },
          content: jsonContent(ref('Error')),
        },
        NotFound: errorResponse('Not found (or another organisation’s)'),
        Error: errorResponse('Any other error, in the same envelope'),
      },
    },
  };
}
