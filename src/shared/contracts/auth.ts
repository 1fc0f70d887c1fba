import { z } from 'zod';
import { answer, whole } from '../answer-schema';
import type { PasswordPolicy } from '../password-policy';
import type { Field } from './field';
import type { Integration } from './integration';
import { MESSAGES } from '../messages';
import { LANGUAGES } from '../languages';

export const AUTH_TYPE_PASSWORD = 1;
export const AUTH_TYPE_API_KEY = 2;
/** Sessions opened through a linked social account. */
export const AUTH_TYPE_SOCIAL = 3;
/** Calls made with an organisation API key (Authorization: Bearer rk_...): no user, no session. */
export const AUTH_TYPE_ORG_KEY = 4;

export const tokenCreateSchema = z
  .object({
    username: z.string().trim().min(1, MESSAGES.required).max(254),
    password: z.string().min(1, MESSAGES.required).max(1024),
  })
  .strict();

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  /** Seconds until the access token expires. */
  expires_in: number;
  auth_type_id: number;
}

export interface AuthMethod {
  id: number;
  name: string;
  details: { header: string; prefix: string };
}

export const organizationInfoSchema = answer({ id: whole(), name: z.string(), domain: z.string().describe('The subdomain label, e.g. acme') });
export type OrganizationInfo = z.infer<typeof organizationInfoSchema>;

export const currentUserSchema = answer({
  id: whole(),
  name: z.string(),
  username: z.string().describe('The login: an email, or a username in simple-sign mode'),
  email: z.string().nullable(),
  has_password: z.boolean().describe('Whether username-password access exists (a social-only user has none and may create it)'),
  language: z.enum(LANGUAGES).nullable().describe('The console language the user chose; null when never chosen'),
  organization: organizationInfoSchema,
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export interface GuestInit {
  password_config: PasswordPolicy;
  auth: {
    access_token_ttl: number;
    refresh_token_ttl: number;
    /** Header that carries the refresh token when an auth type is stored. */
    refresh_header: string;
  };
  auth_methods: AuthMethod[];
  /** Null on the bare platform host (sign-up, pre-registration), which names no organisation. */
  organization: OrganizationInfo | null;
  /** Social sign-in providers configured in this deployment. */
  social_providers: { id: string; name: string }[];
  /** The interactive API documentation (Swagger UI), derived from the API base URL. */
  api_docs_url: string;
  /** The live-chat widget for signed-in users (a Chatwoot-compatible provider), or null when it is off. */
  chat_widget: { base_url: string; website_token: string } | null;
  settings: {
    name: string;
    env: string;
    'signin.mode': 'simple';
    'signup.enabled': boolean;
    'signup.active': boolean;
    /** Where "become a client" happens: the platform host's /signup page. */
    'signup.applicationUrl': string;
    /** The amount due at sign-up, in cents, and its currency (lower-case ISO code). */
    'signup.amount': number;
    'signup.currency': string;
    languages: string[];
    /** True in the shared demo organisation: account forms read-only, some features locked. */
    demo: boolean;
    /** Hours between demo resets (the spec's reset_length). */
    'demo.reset_length': number;
  } & ConsoleSettings;
}

/** The console's runtime settings (spec 3), set by the operator (src/modules/console-settings). */
export interface ConsoleSettings {
  /** The live-chat dialog for signed-in users (shown only when a chat provider is configured too). */
  'dialog.enabled': boolean;
  /** Several consoles (tabs) of one browser share the signed-in session and follow each other's sign-in and out. */
  'multiapp.enabled': boolean;
  /** Where the console reports its errors (POST). */
  'log.url': string;
  /** The API's origin ('' = the console's own) and path: calls go to baseUrl + path. */
  'api.baseUrl': string;
  'api.path': string;
  /** How often (ms) the console checks for a newer version, besides on every API answer. */
  updatesInterval: number;
  /** Static pages served at /{name}. */
  staticPages: string[];
  /** Rows one "delete all" request removes (page_size of the bulk DELETE). */
  removingPageSize: number;
  /** Console routes removed from the route table (by route name). */
  disabledRoutes: string[];
}

export interface Dictionaries {
  integration_types: string[];
  address_types: string[];
  field_types: string[];
  template_types: string[];
}

/** Spec 3 "Init data": what the console preloads after sign-in instead of fetching each. */
export interface Preloadables extends Dictionaries {
  integrations: Integration[];
  fields: Field[];
}

export interface UserInit {
  user: CurrentUser;
  preloadables: Preloadables;
}

export interface ClientLogInput {
  msg: string;
  env: string;
  level: string;
  args?: Record<string, unknown>;
}

export const clientLogSchema = z
  .object({
    msg: z.string().trim().min(1, MESSAGES.required).max(2000),
    env: z.string().trim().min(1, MESSAGES.required).max(40),
    level: z.enum(['ERROR', 'WARN', 'INFO', 'DEBUG'], { error: 'level must be ERROR, WARN, INFO or DEBUG' }),
    args: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
