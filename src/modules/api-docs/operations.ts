import { z } from 'zod';
import { accountDeleteSchema, apiKeyNoteSchema, languageUpdateSchema, organizationUpdateSchema, profileUpdateSchema } from '../../shared/contracts/account';
import { clientLogSchema, tokenCreateSchema } from '../../shared/contracts/auth';
import { activityLogFilterShape } from '../../shared/contracts/activity-log';
import { blacklistFilterShape, blacklistInputSchema } from '../../shared/contracts/blacklist';
import { BROADCAST_STATUSES, BROADCAST_TYPES, broadcastInputSchema, recipientListFilterShape, recipientsPreviewSchema } from '../../shared/contracts/broadcast';
import { campaignInputSchema } from '../../shared/contracts/campaign';
import { contactFilterShape, contactInputSchema } from '../../shared/contracts/contact';
import { fieldFilterShape, fieldInputSchema, fieldUpdateSchema } from '../../shared/contracts/field';
import { importCreateSchema, importFilterShape, importUploadQuerySchema } from '../../shared/contracts/import';
import {
  INTEGRATION_STATUSES,
  INTEGRATION_TYPES,
  integrationInputSchema,
  integrationUpdateSchema,
  smtpCredentialsSchema,
  twilioCredentialsSchema,
} from '../../shared/contracts/integration';
import { messageFilterShape } from '../../shared/contracts/message';
import { orgKeyCreateSchema } from '../../shared/contracts/org-api-key';
import { passwordRemindSchema, passwordResetSchema, passwordUpdateSchema } from '../../shared/contracts/password';
import { domainCreateSchema } from '../../shared/contracts/domain';
import { deliveriesQuerySchema, endpointCreateSchema, endpointUpdateSchema, replaySinceSchema } from '../../shared/contracts/webhook';
import { SENDER_TYPES, senderInputSchema, senderUpdateSchema } from '../../shared/contracts/sender';
import { preRegistrationSchema, signCompleteSchema, signupSchema } from '../../shared/contracts/signup';
import { socialAuthorizeSchema, socialLinkSchema, socialUserLoadSchema } from '../../shared/contracts/social';
import { subscriptionInputSchema } from '../../shared/contracts/subscription';
import { formInputSchema } from '../../shared/contracts/form';
import { memberListQuerySchema, membershipsPutSchema } from '../../shared/contracts/membership';
import { eraseRequestSchema, exportQuerySchema } from '../../shared/contracts/privacy';
import { tagInputSchema } from '../../shared/contracts/tag';
import { resubscribeBody, unsubscribeBody } from '../../shared/contracts/unsubscribe';
import { sendBatchDocSchema, sendMessageSchema } from '../../shared/contracts/transactional';
import { TEMPLATE_TYPES, templateInputSchema, templatePreviewSchema, templateUpdateSchema, testMessageSchema } from '../../shared/contracts/template';
import { sessionRevokeSchema } from '../account/session-routes';
import { eventsQuerySchema } from '../../shared/contracts/event-schemas';
import type { AnswerSchema } from './answer-schemas';

// The API description as data: every /api/v1 route the worker serves, with the zod contract of its body and
// query. openapi-document.ts turns this list into OpenAPI 3.1; test/worker/api-docs checks it against the app.

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Who may call: `user` needs a signed-in user (bearer token) or an API key; `guest` is open on an organisation's
 * host (or with X-ORG); `platform` is open on the bare platform host and names no organisation.
 */
export type Access = 'user' | 'guest' | 'platform';

/** What a successful answer carries: `{ data }`, a list page, a token pair, a file, a WebSocket upgrade, or a page of events. */
export type ResponseKind = 'item' | 'list' | 'tokens' | 'file' | 'websocket' | 'events';

/** Any answer shape of the document's components: the account's and the entities' (answer-schemas.ts). */
export type DataSchema = AnswerSchema | 'Deleted' | 'BulkDeleted' | 'Reordered';

export interface ApiOperation {
  method: HttpMethod;
  /** Relative to /api/v1, OpenAPI style (`/tag/{id}`). */
  path: string;
  tag: string;
  summary: string;
  access?: Access;
  /** JSON body contract, or a raw upload (`binary`: the bytes as the body; `multipart`: form-data `file` parts). */
  body?: z.ZodType | 'binary' | 'multipart';
  query?: z.ZodObject;
  response?: ResponseKind;
  /** The component schema of `data` (an item) or of each of `items` (a list), when the answer has one. */
  data?: DataSchema;
  /** Success status (default 200). */
  status?: number;
  /** Wrapped in `idempotent` (src/modules/idempotency): takes an Idempotency-Key header and may answer its refusals. */
  idempotent?: boolean;
}

type CrudOp = 'list' | 'read' | 'create' | 'update' | 'delete' | 'bulkDelete' | 'priorities';

interface EntityDoc {
  path: string;
  /** The noun used in summaries. */
  noun: string;
  /** The component schema of one item, and of a list row when that leaves fields out. */
  schema: AnswerSchema;
  listSchema?: AnswerSchema;
  ops: readonly CrudOp[];
  input?: z.ZodObject;
  /** The PUT/PATCH body when it differs from create. */
  update?: z.ZodObject;
  /** Extra list and bulk-delete filters besides the shared ones. */
  filters?: z.ZodRawShape;
}

const ALL: readonly CrudOp[] = ['list', 'read', 'create', 'update', 'delete', 'bulkDelete'];
const REORDERABLE: readonly CrudOp[] = [...ALL, 'priorities'];

/** The shared list parameters (src/shared/list.ts); sort_by takes the entity's sortable keys. */
export const listParams = z
  .object({
    page: z.number().int().min(1).optional().describe('Page number, from 1'),
    page_size: z.number().int().min(1).max(100).optional().describe('Rows per page (default 10, or 100 when ids are given)'),
    sort_by: z.string().optional().describe('A sortable column, e.g. created_at, updated_at, name or priority'),
    sort_order: z.enum(['asc', 'desc']).optional(),
    search: z.string().max(200).optional().describe('Text to look for'),
    ids: z.array(z.number().int().positive()).max(1000).optional().describe('Only these ids (repeated keys: ids=1&ids=2)'),
  })
  .strict();

const bulkDelete = z
  .object({
    ids: z.array(z.number().int().positive()).min(1).max(1000).optional(),
    all: z.literal(true).optional(),
    page_size: z.number().int().min(1).max(1000).optional(),
    search: z.string().max(200).optional(),
  })
  .strict()
  .describe(
    'Either explicit ids, or "all": true with the list filters: then up to page_size matching rows (default 100) are deleted and the answer says whether more remain; repeat until it does not. A body with neither is a 422.',
  );

const priorities = z.object({ ids: z.array(z.number().int().positive()).min(1).max(1000).describe('Ids in their new order') }).strict();

/** The entity collections mounted in src/app.ts that use the shared list/item contract. */
const ENTITIES: EntityDoc[] = [
  { path: '/tag', schema: 'Tag', noun: 'tag', ops: REORDERABLE, input: tagInputSchema },
  { path: '/field', schema: 'Field', noun: 'field', ops: REORDERABLE, input: fieldInputSchema, update: fieldUpdateSchema, filters: fieldFilterShape },
  { path: '/contact', schema: 'Contact', noun: 'contact', ops: ALL, input: contactInputSchema, filters: contactFilterShape },
  { path: '/subscription', schema: 'Subscription', noun: 'subscription', ops: REORDERABLE, input: subscriptionInputSchema },
  // Hosted sign-up forms (src/modules/form): the page itself is public at the organisation's host, /f/<public_key>.
  { path: '/form', schema: 'Form', noun: 'form', ops: ['list', 'read', 'create', 'update', 'delete', 'bulkDelete'], input: formInputSchema },
  {
    path: '/blacklist',
    schema: 'BlacklistEntry',
    noun: 'blacklist entry',
    ops: ['list', 'read', 'create', 'delete', 'bulkDelete'],
    input: blacklistInputSchema,
    filters: blacklistFilterShape,
  },
  { path: '/activity-log', schema: 'ActivityLogEntry', noun: 'activity log entry', ops: ['list', 'read'], filters: activityLogFilterShape },
  { path: '/import', schema: 'Import', noun: 'import', ops: ['list', 'read'], filters: importFilterShape },
  {
    path: '/integration',
    schema: 'Integration',
    noun: 'integration',
    ops: REORDERABLE,
    input: integrationInputSchema,
    update: integrationUpdateSchema,
    filters: { type: z.enum(INTEGRATION_TYPES).optional(), status: z.enum(INTEGRATION_STATUSES).optional() },
  },
  {
    path: '/sender',
    schema: 'Sender',
    noun: 'sender',
    ops: REORDERABLE,
    input: senderInputSchema,
    update: senderUpdateSchema,
    filters: { type: z.enum(SENDER_TYPES).optional(), integration_id: z.number().int().positive().optional() },
  },
  {
    path: '/template',
    schema: 'Template',
    listSchema: 'TemplateListItem',
    noun: 'template',
    ops: ALL,
    input: templateInputSchema,
    update: templateUpdateSchema,
    filters: { type: z.enum(TEMPLATE_TYPES).optional() },
  },
  { path: '/campaign', schema: 'Campaign', noun: 'campaign', ops: ALL, input: campaignInputSchema },
  {
    path: '/message',
    schema: 'Message',
    listSchema: 'MessageListItem',
    noun: 'message',
    ops: ['list', 'read', 'delete', 'bulkDelete'],
    filters: messageFilterShape,
  },
  {
    path: '/broadcast',
    schema: 'Broadcast',
    noun: 'broadcast',
    ops: ['list', 'read', 'create'],
    input: broadcastInputSchema,
    filters: { status: z.enum(BROADCAST_STATUSES).optional(), type: z.enum(BROADCAST_TYPES).optional() },
  },
];

const tagOf = (path: string) => path.split('/')[1];

function entityOperations(e: EntityDoc): ApiOperation[] {
  const tag = tagOf(e.path);
  const item = `${e.path}/{id}`;
  const filters = e.filters ?? {};
  const out: ApiOperation[] = [];
  const put = e.update ?? e.input;
  const data = e.schema;
  for (const op of e.ops) {
    if (op === 'list')
      out.push({
        method: 'get',
        path: e.path,
        tag,
        summary: `List ${e.noun}s`,
        query: listParams.extend(filters),
        response: 'list',
        data: e.listSchema ?? data,
      });
    if (op === 'read') out.push({ method: 'get', path: item, tag, summary: `Get one ${e.noun}`, data });
    if (op === 'create') out.push({ method: 'post', path: e.path, tag, summary: `Create a ${e.noun}`, body: e.input, status: 201, data });
    if (op === 'update' && put) {
      out.push({ method: 'put', path: item, tag, summary: `Replace a ${e.noun}`, body: put, data });
      out.push({ method: 'patch', path: item, tag, summary: `Change some fields of a ${e.noun}`, body: put.partial(), data });
    }
    if (op === 'delete') out.push({ method: 'delete', path: item, tag, summary: `Delete a ${e.noun}`, data: 'Deleted' });
    if (op === 'bulkDelete')
      out.push({
        method: 'delete',
        path: e.path,
        tag,
        summary: `Delete ${e.noun}s by ids or by filter`,
        body: bulkDelete.extend(filters),
        data: 'BulkDeleted',
      });
    if (op === 'priorities')
      out.push({ method: 'post', path: `${e.path}/priorities`, tag, summary: `Reorder ${e.noun}s`, body: priorities, data: 'Reordered' });
  }
  return out;
}

/** Calls beyond the shared entity contract: authentication, account, sign-up, and entity actions. */
const EXTRA: ApiOperation[] = [
  // Start-up and authentication.
  { method: 'get', path: '/init/guest', tag: 'auth', access: 'guest', summary: 'What the console loads first: password rules, auth methods, settings' },
  { method: 'get', path: '/init/user', tag: 'auth', summary: 'The current user and the preloadables: dictionaries, integrations and fields' },
  {
    method: 'post',
    path: '/internal-auth/token-create',
    tag: 'auth',
    access: 'guest',
    summary: 'Sign in with login and password',
    body: tokenCreateSchema,
    response: 'tokens',
  },
  {
    method: 'post',
    path: '/internal-auth/token-refresh',
    tag: 'auth',
    access: 'guest',
    summary: 'Exchange the refresh token (header x-refresh, or Authorization: Bearer) for a new pair; the old one stops working',
    response: 'tokens',
  },
  { method: 'post', path: '/internal-auth/logout', tag: 'auth', summary: 'Sign out: ends this session' },
  { method: 'get', path: '/internal-auth/methods', tag: 'auth', access: 'guest', summary: 'The ways to authenticate, with header and prefix' },
  { method: 'post', path: '/log', tag: 'auth', access: 'guest', summary: 'Report a console error', body: clientLogSchema },

  // The signed-in user (internal-user) and the account area.
  { method: 'get', path: '/internal-user/me', tag: 'account', summary: 'The current user', data: 'CurrentUser' },
  {
    method: 'post',
    path: '/internal-user/me',
    tag: 'account',
    access: 'guest',
    summary: 'Load the user of a social sign-in from the tokens its callback handed over',
    body: socialUserLoadSchema,
    data: 'CurrentUser',
  },
  { method: 'put', path: '/internal-user/{id}', tag: 'account', summary: 'Update the profile: name and login', body: profileUpdateSchema, data: 'CurrentUser' },
  { method: 'delete', path: '/internal-user/{id}', tag: 'account', summary: 'Delete the account and all its data (irreversible)', body: accountDeleteSchema },
  {
    method: 'put',
    path: '/internal-user/{id}/language',
    tag: 'account',
    summary: 'Keep the console language with the user, for their next session anywhere',
    body: languageUpdateSchema,
    data: 'CurrentUser',
  },
  {
    method: 'put',
    path: '/internal-user/{id}/password',
    tag: 'account',
    summary: 'Change the password, or create password access',
    body: passwordUpdateSchema,
  },
  { method: 'delete', path: '/internal-user/{id}/password', tag: 'account', summary: 'Remove password access (another login method must remain)' },
  {
    method: 'post',
    path: '/internal-user/password-remind',
    tag: 'account',
    access: 'guest',
    summary: 'Email a password reset link (always answered the same way)',
    body: passwordRemindSchema,
  },
  {
    method: 'post',
    path: '/internal-user/password-reset',
    tag: 'account',
    access: 'guest',
    summary: 'Set a new password with the emailed code',
    body: passwordResetSchema,
  },
  {
    method: 'post',
    path: '/internal-user/sign-complete',
    tag: 'account',
    access: 'guest',
    summary: 'Complete a registration with the emailed code',
    body: signCompleteSchema,
    response: 'tokens',
  },
  { method: 'get', path: '/organization', tag: 'account', summary: 'The current organisation and its tracking defaults', data: 'OrganizationSettings' },
  {
    method: 'put',
    path: '/organization',
    tag: 'account',
    summary: 'Rename the current organisation or change its tracking defaults',
    body: organizationUpdateSchema,
    data: 'OrganizationSettings',
  },
  { method: 'get', path: '/session', tag: 'account', summary: "The current user's active sessions", response: 'list', data: 'Session' },
  { method: 'delete', path: '/session/{id}', tag: 'account', summary: 'End one session' },
  { method: 'delete', path: '/session', tag: 'account', summary: 'End the chosen sessions', body: sessionRevokeSchema },
  { method: 'get', path: '/internal-api-key', tag: 'account', summary: "The current user's API key", response: 'list', data: 'ApiKey' },
  {
    method: 'post',
    path: '/internal-api-key',
    tag: 'account',
    summary: 'Create an API key (the key is shown once, in this answer)',
    body: apiKeyNoteSchema,
    status: 201,
    data: 'ApiKey',
  },
  { method: 'put', path: '/internal-api-key/{id}', tag: 'account', summary: "Change an API key's note", body: apiKeyNoteSchema, data: 'ApiKey' },
  {
    method: 'post',
    path: '/internal-api-key/{id}/regenerate',
    tag: 'account',
    summary: 'Replace the key with a new one (shown once); the old one stops working',
    data: 'ApiKey',
  },
  { method: 'delete', path: '/internal-api-key/{id}', tag: 'account', summary: 'Delete the API key' },
  {
    method: 'get',
    path: '/organization-api-key',
    tag: 'account',
    summary: "The organisation's API keys, newest first (revoked ones listed as revoked; console sign-in only)",
    response: 'list',
    data: 'OrgApiKey',
  },
  {
    method: 'post',
    path: '/organization-api-key',
    tag: 'account',
    summary: 'Create an organisation API key (the key is shown once, in this answer; a test key may only send or read)',
    body: orgKeyCreateSchema,
    status: 201,
    data: 'OrgApiKey',
  },
  {
    method: 'delete',
    path: '/organization-api-key/{id}',
    tag: 'account',
    summary: 'Revoke an organisation API key: it stops working at once',
    data: 'OrgApiKey',
  },
  { method: 'get', path: '/social', tag: 'account', summary: 'Social sign-in providers and which are linked' },
  {
    method: 'post',
    path: '/social/{provider}/authorize',
    tag: 'account',
    access: 'guest',
    summary: 'Start a social sign-in (login) or link (signed in): answers the provider URL',
    body: socialAuthorizeSchema,
  },
  {
    method: 'post',
    path: '/social/{provider}/link',
    tag: 'account',
    summary: 'Confirm a link the provider verified, with the state its callback handed back (console session of the user who started it)',
    body: socialLinkSchema,
  },
  { method: 'delete', path: '/social/{provider}', tag: 'account', summary: 'Unlink a social account (another login method must remain)' },
  { method: 'get', path: '/demo', tag: 'account', access: 'guest', summary: 'The shared demo: reset interval, last and next reset, login (404 elsewhere)' },

  // Sign-up and pre-registration, on the platform host.
  {
    method: 'post',
    path: '/signup',
    tag: 'signup',
    access: 'platform',
    summary: 'Become a client: profile and organisation; answers where to pay',
    body: signupSchema,
    status: 201,
    data: 'Signup',
  },
  { method: 'get', path: '/signup/{id}', tag: 'signup', access: 'platform', summary: 'A sign-up and its payment status', data: 'Signup' },
  {
    method: 'post',
    path: '/signup/{id}/test-payment',
    tag: 'signup',
    access: 'platform',
    summary: 'Pay through the built-in test checkout (when Stripe is not configured)',
    data: 'Signup',
  },
  {
    method: 'post',
    path: '/pre-registration',
    tag: 'signup',
    access: 'platform',
    summary: 'Ask to join while registration is paused',
    body: preRegistrationSchema,
    status: 201,
  },

  // Entity actions.
  {
    method: 'get',
    path: '/dictionary/{name}',
    tag: 'dictionary',
    summary: 'A dictionary: template-types, address-types, integration-types or field-types',
    response: 'list',
  },
  {
    method: 'post',
    path: '/import/upload',
    tag: 'import',
    summary: 'Upload a CSV file (the raw bytes as the body)',
    query: importUploadQuerySchema,
    body: 'binary',
    status: 201,
  },
  { method: 'post', path: '/import', tag: 'import', summary: 'Start importing an uploaded file with a column mapping', body: importCreateSchema, status: 201 },
  {
    method: 'get',
    path: '/dashboard',
    tag: 'dashboard',
    summary:
      "The organisation's usage by day for two weeks (requests, messages, opens, clicks, unsubscribes, contacts, data and file volume) and the weekly totals",
  },
  { method: 'get', path: '/message-archive', tag: 'message', summary: 'Where messages past the retention went: the retention in days and the archived months' },
  {
    method: 'get',
    path: '/message-archive/{month}',
    tag: 'message',
    summary: "One month's archived messages (YYYY-MM) as gzip NDJSON, one line per message with its tracking events",
    response: 'file',
  },
  { method: 'get', path: '/live', tag: 'live', summary: 'Live updates over a WebSocket (Upgrade: websocket)', response: 'websocket', status: 101 },
  ...INTEGRATION_TYPES.map(
    (type): ApiOperation => ({
      method: 'post',
      path: `/integration/${type}`,
      tag: 'integration',
      summary: `Create a ${type} integration (the type from the address)`,
      body: integrationInputSchema,
      status: 201,
    }),
  ),
  ...INTEGRATION_TYPES.flatMap((type): ApiOperation[] => [
    { method: 'put', path: `/integration/{id}/${type}`, tag: 'integration', summary: `Replace a ${type} integration`, body: integrationUpdateSchema },
    {
      method: 'patch',
      path: `/integration/{id}/${type}`,
      tag: 'integration',
      summary: `Change some fields of a ${type} integration`,
      body: integrationUpdateSchema.partial(),
    },
    {
      method: 'patch',
      path: `/integration/{id}/${type}/credentials`,
      tag: 'integration',
      summary: `Replace the credentials of a ${type} integration`,
      body: type === 'smtp' ? smtpCredentialsSchema : twilioCredentialsSchema,
    },
  ]),
  { method: 'post', path: '/integration/{id}/sync', tag: 'integration', summary: 'Queue a sync with the provider (not for smtp)', status: 202 },
  { method: 'post', path: '/integration/{id}/test', tag: 'integration', summary: 'Test the connection with the stored settings' },
  // Sending domains (src/modules/domain): read with any sign-in or organisation key; changes need a person.
  {
    method: 'get',
    path: '/domain',
    tag: 'domain',
    summary: "The organisation's sending domains with their records and last checks",
    response: 'list',
    data: 'Domain',
  },
  { method: 'get', path: '/domain/{id}', tag: 'domain', summary: 'A sending domain: the records to publish, each with its last check', data: 'Domain' },
  {
    method: 'post',
    path: '/domain',
    tag: 'domain',
    summary: "Add a sending domain: a verification token and a DKIM key are made (409 subdomainTaken under another organisation's domain)",
    body: domainCreateSchema,
    status: 201,
    data: 'Domain',
  },
  {
    method: 'post',
    path: '/domain/{id}/check',
    tag: 'domain',
    summary: 'Look every record up now over DNS-over-HTTPS; verifies the domain under the claim rules (409 taken, subdomainTaken)',
    data: 'Domain',
  },
  {
    method: 'post',
    path: '/domain/{id}/rotate-key',
    tag: 'domain',
    summary: 'Start a DKIM key rotation: a new selector and key, used once a check sees its record (409 rotationPending, notVerified)',
    data: 'Domain',
  },
  { method: 'delete', path: '/domain/{id}', tag: 'domain', summary: 'Delete a sending domain and its keys', data: 'Deleted' },
  // Webhook endpoints (src/modules/webhook): guarded like the integrations; the secret is answered only by create and rotate-secret.
  {
    method: 'get',
    path: '/webhooks',
    tag: 'webhooks',
    summary: "The organisation's webhook endpoints (header values masked, no secret)",
    response: 'list',
    data: 'WebhookEndpoint',
  },
  {
    method: 'post',
    path: '/webhooks',
    tag: 'webhooks',
    summary: 'Add a webhook endpoint (https; 409 limit past 20): the answer carries its signing secret, shown this once',
    body: endpointCreateSchema,
    status: 201,
    data: 'WebhookEndpointWithSecret',
  },
  { method: 'get', path: '/webhooks/{id}', tag: 'webhooks', summary: 'A webhook endpoint', data: 'WebhookEndpoint' },
  {
    method: 'patch',
    path: '/webhooks/{id}',
    tag: 'webhooks',
    summary: 'Change a webhook endpoint; turning it on clears why the platform had it off. A header value sent as ******** is kept',
    body: endpointUpdateSchema,
    data: 'WebhookEndpoint',
  },
  { method: 'delete', path: '/webhooks/{id}', tag: 'webhooks', summary: 'Delete a webhook endpoint and its deliveries', data: 'Deleted' },
  {
    method: 'post',
    path: '/webhooks/{id}/rotate-secret',
    tag: 'webhooks',
    summary: 'A new signing secret, shown this once; the old one keeps signing beside it for 24 hours',
    data: 'WebhookEndpointWithSecret',
  },
  {
    method: 'post',
    path: '/webhooks/{id}/test',
    tag: 'webhooks',
    summary: "Deliver one webhook.test event now: the receiver's status, the time taken and the error",
    data: 'WebhookTestResult',
  },
  {
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    tag: 'webhooks',
    summary: "The endpoint's deliveries, newest first: { data, next_before } (before: the last page's next_before)",
    query: deliveriesQuerySchema,
  },
  {
    method: 'post',
    path: '/webhooks/{id}/deliveries/{eventId}/replay',
    tag: 'webhooks',
    summary: 'Deliver one event again (attempts start over, a fresh timestamp and signature); 404 when the stream has no such event',
    data: 'WebhookReplay',
  },
  {
    method: 'post',
    path: '/webhooks/{id}/replay',
    tag: 'webhooks',
    summary: "Deliver again every event of the endpoint's types since a moment within the last 30 days",
    body: replaySinceSchema,
    data: 'WebhookReplay',
  },
  { method: 'post', path: '/template/{id}/preview', tag: 'template', summary: 'Render a template, optionally for a contact', body: templatePreviewSchema },
  { method: 'post', path: '/template/{id}/test', tag: 'template', summary: 'Queue a test message of a template', body: testMessageSchema, status: 202 },
  {
    method: 'post',
    path: '/send',
    tag: 'send',
    summary: 'Send one message to one recipient, from a template with data or inline content (transactional)',
    body: sendMessageSchema,
    data: 'SendAccepted',
    status: 202,
    idempotent: true,
  },
  {
    method: 'post',
    path: '/send/batch',
    tag: 'send',
    summary: 'Send up to 500 messages, each answered on its own (202 with its message, or its 422)',
    body: sendBatchDocSchema,
    data: 'SendBatchAnswer',
    status: 202,
    idempotent: true,
  },
  {
    method: 'post',
    path: '/broadcast/preview',
    tag: 'broadcast',
    summary: 'Count and sample the contacts a recipients filter selects',
    body: recipientsPreviewSchema,
  },
  { method: 'post', path: '/broadcast/{id}/pause', tag: 'broadcast', summary: 'Pause a queued or sending broadcast' },
  { method: 'post', path: '/broadcast/{id}/resume', tag: 'broadcast', summary: 'Resume a paused broadcast' },
  { method: 'post', path: '/broadcast/{id}/cancel', tag: 'broadcast', summary: 'Cancel a broadcast: nothing more goes out' },
  {
    method: 'post',
    path: '/broadcast/{id}/retry-failed',
    tag: 'broadcast',
    summary: 'Send again to the recipients whose message failed with a retryable error',
  },
  {
    method: 'get',
    path: '/broadcast/{id}/recipients',
    tag: 'broadcast',
    summary: 'The recipients of a broadcast: address used and what became of each message',
    query: listParams.extend(recipientListFilterShape),
    response: 'list',
    data: 'BroadcastRecipient',
  },
  { method: 'get', path: '/broadcast/{id}/clicks', tag: 'broadcast', summary: 'Clicks per link of a broadcast: total and unique, all and human' },
  {
    method: 'get',
    path: '/broadcast/{id}/unsubscribes',
    tag: 'broadcast',
    summary: 'The latest unsubscribes a broadcast brought, with reason and comment (its counter has the total)',
  },
  {
    method: 'get',
    path: '/message/{id}/engagement',
    tag: 'message',
    summary: 'The opens and clicks of one message: every hit with its class and reason, and clicks per link',
  },
  {
    method: 'get',
    path: '/contact/{id}/unsubscribes',
    tag: 'contact',
    summary:
      "A contact's opt-outs: the categories left (when, from which message, why), numbers that replied STOP, and its suppressed addresses (why, which message)",
  },
  {
    method: 'get',
    path: '/contact/{id}/memberships',
    tag: 'contact',
    summary:
      "A contact's standing in every subscription (pending, confirmed, unsubscribed; 'implied' source: added by the organisation, a member where no row says otherwise) and the consent of each of its form sign-ups",
    data: 'ContactMemberships',
  },
  {
    method: 'put',
    path: '/contact/{id}/memberships',
    tag: 'contact',
    summary:
      "Set a contact's standing in the subscriptions named (others keep theirs): confirmed (the organisation collected the consent; a pending membership is confirmed, an unsubscribe undone) or unsubscribed, with a source (default: 'console' for a signed-in user, 'api' for an API key). Answers as GET; recorded in the activity log",
    body: membershipsPutSchema,
    data: 'ContactMemberships',
  },
  {
    method: 'post',
    path: '/contact/{id}/erase',
    tag: 'contact',
    summary:
      "Erase a contact at the person's request (GDPR article 17), confirmed by `confirm`: one of its addresses as typed (its name when it has none). Removes the contact with its fields, tags, memberships, consents and unsubscribes; the blacklist entries, SMS opt-outs and soft bounces of its addresses; the values of its activity-log entries; the personal data of its messages in the ledgers (address, name, content, metadata, user agents) and in the R2 archives (only the objects the archive index names); its rows in stored import files; kept unrecognised mail naming it. Keeps counters, and a keyed hash of each address on a do-not-re-add list (imports and the API cannot add it again; the person's own form sign-up can). contact.deleted names only the id, with erased: true. 409 while an import runs or messages to the person are still on their way. Answers the counts",
    body: eraseRequestSchema,
    data: 'Erasure',
  },
  {
    method: 'get',
    path: '/contact/{id}/export',
    tag: 'contact',
    summary:
      'Everything the organisation keeps of a contact (GDPR articles 15 and 20), streamed as a download: format=json one JSON document (exported_at, organization, contact, subscriptions, consents, unsubscribes, suppressions, activity, messages from every ledger and archived_messages from the R2 archives, each with its outcome and tracking events), format=html the same as a readable page. A read-only key may call it; recorded in the activity log (action export)',
    query: exportQuerySchema,
    response: 'file',
  },
  {
    method: 'get',
    path: '/subscription/{id}/members',
    tag: 'subscription',
    summary:
      "A subscription's members by the rule broadcasts use, in contact id order: status confirmed includes the contacts the organisation added (source 'implied'). Page with after_id (the last contact_id of the page before: any depth at the cost of one page) or page",
    query: memberListQuerySchema,
    response: 'list',
    data: 'SubscriptionMember',
  },
  {
    method: 'delete',
    path: '/contact/{id}/unsubscribes/{subscriptionId}',
    tag: 'contact',
    summary: 'Re-subscribe a contact to a category they left (recorded in the activity log)',
  },
  {
    method: 'delete',
    path: '/contact/{id}/suppressions/{entryId}',
    tag: 'contact',
    summary:
      "Lift the suppression of one of a contact's addresses (a bounce, a spam complaint, the blacklist): it is mailed again (recorded in the activity log)",
  },
  {
    method: 'get',
    path: '/unsubscribe',
    tag: 'unsubscribe',
    access: 'platform',
    summary: "The public unsubscribe page's facts for a signed link (`m`): organisation, category, other categories, reasons. Changes nothing",
    query: z.object({ m: z.string().describe('The signed link of the email') }),
  },
  {
    method: 'post',
    path: '/unsubscribe',
    tag: 'unsubscribe',
    access: 'platform',
    summary: 'Leave a category with the signed link (`m`) of an email, with an optional reason and comment',
    body: unsubscribeBody,
  },
  {
    method: 'post',
    path: '/unsubscribe/resubscribe',
    tag: 'unsubscribe',
    access: 'platform',
    summary: 'Join a category again (undo) with the same signed link (`m`)',
    body: resubscribeBody,
  },
  {
    method: 'post',
    path: '/template/{id}/attachment',
    tag: 'template',
    summary: 'Attach files (multipart/form-data, `file` parts)',
    body: 'multipart',
    status: 201,
  },
  { method: 'get', path: '/template/{id}/attachment/{attachmentId}', tag: 'template', summary: 'Download an attachment', response: 'file' },
  { method: 'delete', path: '/template/{id}/attachment/{attachmentId}', tag: 'template', summary: 'Remove an attachment' },
  {
    method: 'get',
    path: '/events',
    tag: 'events',
    summary:
      "The organisation's event stream, oldest first, kept 30 days: a page after `after` (the previous page's next_cursor), only `types` when given (the types and their data: the document's webhooks). Order across D1's events (contacts, unsubscribes, suppressions, SMS opt-outs, inbound SMS) and the ledger's (messages, hits, broadcasts) is not guaranteed: each event has its time",
    query: eventsQuerySchema,
    response: 'events',
  },
];

/** Every documented /api/v1 operation. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...EXTRA.filter((op) => op.tag === 'auth' || op.tag === 'account' || op.tag === 'signup'),
  ...ENTITIES.flatMap(entityOperations),
  ...EXTRA.filter((op) => !['auth', 'account', 'signup'].includes(op.tag)),
];

/**
 * Platform-internal routes left out of the public description on purpose: the operator API, the Stripe webhook,
 * the social sign-in callback and the SMS provider's callbacks (browsers and providers call them, not API
 * clients). Paths relative to /api/v1.
 */
export const UNDOCUMENTED_ROUTES: readonly RegExp[] = [/^\/operator(\/|$)/, /^\/signup\/stripe-webhook$/, /^\/social\/callback(\/|$)/, /^\/hooks\//];
