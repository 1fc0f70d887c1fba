import { z } from 'zod';
import { answer, moment, stampsShape, whole } from '../answer-schema';
import { MESSAGES } from '../messages';
import { requiredText } from '../zod-helpers';

// Organisation API keys (issue 36): keys for the organisation's software, not a person. Sent as
// `Authorization: Bearer rk_live_...` (or rk_test_...); each has a scope, and a test key never delivers.

export const ORG_KEY_SCOPES = ['send', 'read', 'full'] as const;
export type OrgKeyScope = (typeof ORG_KEY_SCOPES)[number];

/** The scopes a test key may have: it never delivers, and a full key could start broadcasts, which would. */
export const TEST_KEY_SCOPES: readonly OrgKeyScope[] = ['send', 'read'];

/** What every organisation key starts with: tells it from the console's JWTs in the Authorization header. */
export const ORG_KEY_PREFIX = 'rk_';
export const LIVE_KEY_PREFIX = 'rk_live_';
export const TEST_KEY_PREFIX = 'rk_test_';

/**
 * The only calls a send-scoped key may make (method and path under /api/v1); everything else is a 403 `scope`.
 * The send module serves them, the scope check (src/modules/api-key/scopes.ts) and the API description name them
 * from here.
 */
export const SEND_SCOPE_ROUTES: readonly { method: 'POST'; path: string }[] = [
  { method: 'POST', path: '/send' },
  { method: 'POST', path: '/send/batch' },
];

export const ORG_KEY_MESSAGES = {
  scope: `Must be one of: ${ORG_KEY_SCOPES.join(', ')}`,
  testScope: 'A test key may only have the scope send or read',
  wrongOrganization: 'This key belongs to another organisation',
  sendScope: 'This key may only send messages (POST /api/v1/send and /api/v1/send/batch)',
  readScope: 'This key may only read (GET requests)',
  userRequired: 'An organisation API key has no user: this call needs a person signed in',
} as const;

/** POST /organization-api-key: a name, a scope, and whether it is a test key (test keys only send or read). */
export const orgKeyCreateSchema = z
  .object({
    name: requiredText(100),
    scope: z.enum(ORG_KEY_SCOPES, { error: ORG_KEY_MESSAGES.scope }),
    test: z.boolean({ error: MESSAGES.mustBeBoolean }).default(false),
  })
  .strict()
  .refine((input) => !input.test || TEST_KEY_SCOPES.includes(input.scope), { message: ORG_KEY_MESSAGES.testScope, path: ['scope'] });
export type OrgKeyCreate = z.input<typeof orgKeyCreateSchema>;

/** An organisation key as listed; `key` only in the answer to create, shown once. */
export const orgKeyRowSchema = answer({
  id: whole(),
  name: z.string(),
  scope: z.enum(ORG_KEY_SCOPES),
  test: z.boolean().describe('A test key (rk_test_...) runs everything but never delivers'),
  prefix: z.string().describe("The key's first characters, to tell keys apart (the rest is never shown again)"),
  created_by: z.object({ id: whole(), name: z.string() }).strict().nullable().describe('The user who created the key; null when that user is gone'),
  last_used_at: moment().nullable().describe('When the key last made a call (to the minute)'),
  revoked_at: moment().nullable().describe('When the key was revoked; a revoked key stays listed and answers 401'),
  ...stampsShape,
  key: z.string().optional().describe('The key itself: only in the answer to create, shown once'),
});
export type OrgKeyRow = z.infer<typeof orgKeyRowSchema>;

/** The operator's limits of an organisation's API keys (GET and PUT /operator/organizations/{domain}/api-limits). */
export const API_LIMIT_RANGES = {
  key_requests_per_second: { min: 1, max: 10_000 },
  key_messages_per_hour: { min: 1, max: 10_000_000 },
  org_requests_per_second: { min: 1, max: 100_000 },
  org_messages_per_hour: { min: 1, max: 100_000_000 },
} as const;
export type ApiLimitName = keyof typeof API_LIMIT_RANGES;
