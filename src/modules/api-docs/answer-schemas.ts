import { int, str, time, type Json } from './json-schema';
import type { AccountSchema } from './operations';

// JSON Schemas of the answers whose shapes are TypeScript interfaces in src/shared/contracts (not zod), for the
// OpenAPI document's components. Keep them in step with those interfaces: CurrentUser and OrganizationInfo
// (auth.ts), OrganizationSettings (account.ts), SessionRow and ApiKeyRow (account.ts), SignupView (signup.ts).

const nullableStr = { type: ['string', 'null'] };

const organization: Json = {
  type: 'object',
  required: ['id', 'name', 'domain'],
  properties: { id: int, name: str, domain: { type: 'string', description: 'The subdomain label, e.g. acme' } },
};

export const ANSWER_SCHEMAS: Record<AccountSchema, Json> = {
  Organization: organization,
  OrganizationSettings: {
    type: 'object',
    required: ['id', 'name', 'domain', 'track_opens', 'track_clicks', 'message_retention_days', 'effective_retention_days'],
    properties: {
      ...(organization.properties as Json),
      message_retention_days: { type: ['integer', 'null'], description: "Days messages stay before they are archived; null: the platform's default" },
      effective_retention_days: { type: 'integer', description: "The retention that applies: the organisation's own, else the platform's default" },
      track_opens: { type: 'boolean', description: 'Default for new broadcasts: add an open pixel' },
      track_clicks: { type: 'boolean', description: 'Default for new broadcasts: send links through the click redirect' },
    },
  },
  CurrentUser: {
    type: 'object',
    required: ['id', 'name', 'username', 'email', 'has_password', 'organization'],
    properties: {
      id: int,
      name: str,
      username: { type: 'string', description: 'The login: an email, or a username in simple-sign mode' },
      email: nullableStr,
      has_password: { type: 'boolean', description: 'Whether username-password access exists' },
      organization,
    },
  },
  Session: {
    type: 'object',
    required: ['id', 'device', 'user_agent', 'ip', 'expires_at', 'refreshes_at', 'created_at', 'updated_at', 'current', 'loggedIn'],
    properties: {
      id: str,
      device: nullableStr,
      user_agent: nullableStr,
      ip: nullableStr,
      expires_at: time,
      refreshes_at: { type: ['string', 'null'], format: 'date-time' },
      created_at: time,
      updated_at: time,
      current: { type: 'boolean', description: 'The session making this request' },
      loggedIn: { type: 'boolean', description: 'The same as current, by the name the spec gives it' },
    },
  },
  ApiKey: {
    type: 'object',
    required: ['id', 'name', 'note', 'created_at', 'updated_at'],
    properties: {
      id: int,
      name: { type: 'string', description: "The key's visible prefix" },
      note: nullableStr,
      created_at: time,
      updated_at: time,
      key: { type: 'string', description: 'The key itself: only in the answers to create and regenerate, shown once' },
    },
  },
  Signup: {
    type: 'object',
    required: ['id', 'status', 'amount', 'currency', 'checkout_url', 'email', 'domain'],
    properties: {
      id: str,
      status: { type: 'string', enum: ['pending', 'paid', 'completed', 'failed'] },
      amount: { type: 'integer', description: 'Amount due, in cents' },
      currency: str,
      checkout_url: { type: 'string', description: 'Where the browser goes to pay (empty once paid)' },
      email: str,
      domain: str,
    },
  },
};
