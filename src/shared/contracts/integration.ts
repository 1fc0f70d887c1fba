import { z } from 'zod';
import { answer, moment, stampsShape, whole } from '../answer-schema';
import { MESSAGES, atMostCharacters, greaterThan } from '../messages';
import { optionalText, requiredText } from '../zod-helpers';

// Integrations: how messages leave. smtp (an SMTP server) sends email, twilio sends SMS.
// Secrets (smtp password, twilio auth token) are write-only: they are taken on create and by
// PATCH /integration/{id}/{type}/credentials, stored encrypted, and never returned.
export const INTEGRATION_TYPES = ['smtp', 'twilio'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const INTEGRATION_STATUSES = ['active', 'merging'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

export const INTEGRATION_MESSAGES = {
  type: 'Type must be smtp or twilio',
  port: 'Port must be a whole number from 1 to 65535',
  server: 'Enter a host name such as smtp.example.com',
  sid: 'Account SID is AC followed by 32 hexadecimal characters',
  syncSmtp: 'SMTP integrations have nothing to sync; sync is for twilio integrations',
  syncRunning: 'This integration is already syncing; wait until it is active again',
  sendgridKey: 'Paste the verification key SendGrid shows for its signed Event Webhook (a base64 public key)',
} as const;

/** A base64 DER public key as SendGrid shows it (a P-256 SubjectPublicKeyInfo is 91 bytes: 124 characters). */
const SPKI_BASE64 = /^[A-Za-z0-9+/]{80,300}={0,2}$/;

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\[?[0-9A-Fa-f:.]+\]?$/;
export const TWILIO_SID = /^AC[0-9a-fA-F]{32}$/;

const port = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: (i) => (i.input === undefined || i.input === null ? MESSAGES.required : INTEGRATION_MESSAGES.port) })
    .int(INTEGRATION_MESSAGES.port)
    .min(1, greaterThan(0))
    .max(65535, INTEGRATION_MESSAGES.port),
);

/** SMTP connection details: everything but the password. ssl = implicit TLS (465), tls = STARTTLS. */
export const smtpDetailsSchema = z
  .object({
    server: requiredText(253).regex(HOST, INTEGRATION_MESSAGES.server),
    port,
    ssl: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
    tls: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
    /** The name the worker greets the server with (EHLO); empty = the sender's domain. */
    domain: optionalText(253).refine((v) => v === null || HOST.test(v), INTEGRATION_MESSAGES.server),
    /** Envelope sender for bounces: set, the integration keeps it (the platform's bounce address is not used). */
    return_path: optionalEmail(),
    /**
     * SendGrid's Event Webhook verification key (Mail Settings, "Signed Event Webhook"): set, the integration takes
     * SendGrid's signed bounce and spam report events at its webhook_url (src/modules/bounce/sendgrid-routes.ts).
     */
    sendgrid_verification_key: optionalText(400).refine((v) => v === null || SPKI_BASE64.test(v), INTEGRATION_MESSAGES.sendgridKey),
  })
  .strict();

/** An optional email address: empty becomes null. */
export function optionalEmail() {
  return optionalText(254).refine((v) => v === null || z.email().safeParse(v).success, MESSAGES.invalidEmail);
}

const secretText = (max: number) => z.string().max(max, atMostCharacters(max));

/** The highest send rate an integration may be given, messages per second. */
export const MAX_RATE_LIMIT = 10_000;

/**
 * Optional ceiling on sends through the integration, in messages per second (e.g. 14 for a new Amazon SES
 * account, 1 for a Twilio long-code number); null means as fast as the provider takes them.
 */
const maxRate = z.number({ error: MESSAGES.mustBeNumber }).gt(0, greaterThan(0)).max(MAX_RATE_LIMIT, `At most ${MAX_RATE_LIMIT} messages per second`).nullish();

/**
 * SMTP (issue 37): true (the default) when Relay signs the mail it sends through the integration with the DKIM key of
 * the sender's verified domain; false for a provider that signs, or rewrites links and so breaks a signature, itself.
 */
const dkimSigning = z
  .boolean({ error: MESSAGES.mustBeBoolean })
  .optional()
  .describe("SMTP: Relay signs with the sender's verified domain's DKIM key (true, default) or the provider signs (false)");

/** POST /integration (or /integration/{type}). Fields of the other type are ignored. */
export const integrationInputSchema = z
  .object({
    name: requiredText(100),
    type: z.enum(INTEGRATION_TYPES, { error: (i) => (i.input === undefined ? MESSAGES.required : INTEGRATION_MESSAGES.type) }),
    note: optionalText(1000),
    should_merge: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
    max_rate: maxRate,
    dkim_signing: dkimSigning,
    details: smtpDetailsSchema.partial().strict().nullish(),
    user: z.string().trim().max(320, atMostCharacters(320)).optional(),
    password: secretText(1000).optional(),
    sid: z.string().trim().optional(),
    token: secretText(200).optional(),
  })
  .strict()
  .superRefine(
    (v, ctx) => {
      // Runs even when other fields failed (see `when`), so the value may be anything.
      if (!v || typeof v !== 'object' || Array.isArray(v)) return;
      const details = v.details && typeof v.details === 'object' ? v.details : undefined;
      const missing = (path: (string | number)[]) => ctx.addIssue({ code: 'custom', path, message: MESSAGES.required });
      if (v.type === 'smtp') {
        if (details?.server === undefined) missing(['details', 'server']);
        if (details?.port === undefined) missing(['details', 'port']);
        if (!v.user) missing(['user']);
        if (!v.password) missing(['password']);
      } else if (v.type === 'twilio') {
        if (!v.sid) missing(['sid']);
        else if (typeof v.sid === 'string' && !TWILIO_SID.test(v.sid)) ctx.addIssue({ code: 'custom', path: ['sid'], message: INTEGRATION_MESSAGES.sid });
        if (typeof v.token !== 'string' || !v.token.trim()) missing(['token']);
      }
    },
    // Report the type's required fields together with any other mistakes, not one round later.
    { when: () => true },
  );
export type IntegrationInput = z.infer<typeof integrationInputSchema>;

/** PUT/PATCH /integration/{id} (or /integration/{id}/{type}): the type is fixed and secrets have their own route. */
export const integrationUpdateSchema = z
  .object({
    name: requiredText(100),
    note: optionalText(1000),
    should_merge: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
    max_rate: maxRate,
    dkim_signing: dkimSigning,
    /** smtp only (merged into the current details); ignored for twilio. */
    details: smtpDetailsSchema.partial().strict().nullish(),
  })
  .strict();
export type IntegrationUpdate = z.infer<typeof integrationUpdateSchema>;

/** PATCH /integration/{id}/smtp/credentials */
export const smtpCredentialsSchema = z.object({ user: requiredText(320), password: secretText(1000).min(1, MESSAGES.required) }).strict();
/** PATCH /integration/{id}/twilio/credentials */
export const twilioCredentialsSchema = z
  .object({
    sid: requiredText(34).regex(TWILIO_SID, INTEGRATION_MESSAGES.sid),
    token: secretText(200).refine((t) => t.trim().length > 0, MESSAGES.required),
  })
  .strict();

export const smtpDetailsAnswer = answer(
  {
    server: z.string(),
    port: whole(),
    ssl: z.boolean(),
    tls: z.boolean(),
    domain: z.string().nullable(),
    return_path: z.string().nullable(),
    sendgrid_verification_key: z.string().nullable(),
    user: z.string(),
  },
  'SMTP: never the password',
);
export type SmtpDetails = z.infer<typeof smtpDetailsAnswer>;

export const twilioDetailsAnswer = answer({ sid: z.string() }, 'Twilio: the account SID, never the token');
export type TwilioDetails = z.infer<typeof twilioDetailsAnswer>;

export const integrationSyncResultSchema = answer(
  { finished_at: moment(), numbers_found: whole().nullable(), senders_added: whole().nullable(), error: z.string().nullable() },
  'How the last sync ended (twilio): numbers found at the provider, senders added, or the error',
);
export type IntegrationSyncResult = z.infer<typeof integrationSyncResultSchema>;

export const integrationSchema = answer({
  id: whole(),
  name: z.string(),
  type: z.enum(INTEGRATION_TYPES),
  status: z.enum(INTEGRATION_STATUSES),
  note: z.string().nullable(),
  should_merge: z.boolean(),
  priority: whole(),
  max_rate: z.number().nullable().describe('Messages per second at most, shared by everything that sends through it; null: no limit'),
  dkim_signing: z
    .boolean()
    .describe("Relay signs its mail with the DKIM key of the sender's verified domain; false: the provider signs (always true for twilio)"),
  details: z.union([smtpDetailsAnswer, twilioDetailsAnswer]),
  webhook_url: z
    .string()
    .describe("Where the provider reports to us: SMTP, SendGrid's signed Event Webhook (bounces, spam reports); Twilio, the number's incoming messages"),
  last_sync: integrationSyncResultSchema.nullable(),
  ...stampsShape,
});
export type Integration = z.infer<typeof integrationSchema>;

/** POST /integration/{id}/test answer: whether the provider accepted the settings, in plain words. */
export interface IntegrationTestResult {
  ok: boolean;
  /** 'ok', or what failed: bad_host, refused, unreachable, tls_failed, timeout, auth_failed, rejected, invalid_config, ... */
  code: string;
  /** One or two sentences a person can act on. */
  message: string;
  /** The server's own last words, when it said any. */
  server_reply: string | null;
}
