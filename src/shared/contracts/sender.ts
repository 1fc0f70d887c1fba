import { z } from 'zod';
import { answer, namedRef, stampsShape, whole } from '../answer-schema';
import { addressError } from '../address';
import { MESSAGES } from '../messages';
import { optionalText, requiredText } from '../zod-helpers';
import { SENDER_DOMAIN_STATES } from './domain';
import { INTEGRATION_TYPES, type IntegrationType } from './integration';

// Senders: the addresses messages go out from. An email sender belongs to an smtp integration, a phone
// sender to a twilio one. integration_id and type are chosen on create only; name is for email senders.
export const SENDER_TYPES = ['email', 'phone'] as const;
export type SenderType = (typeof SENDER_TYPES)[number];

export const SENDER_MESSAGES = {
  type: 'Type must be email or phone',
  integrationNotFound: 'Integration not found',
  emailNeedsSmtp: 'Email senders need an smtp integration',
  phoneNeedsTwilio: 'Phone senders need a twilio integration',
} as const;

/** The integration type each sender type sends through. */
export const SENDER_INTEGRATION: Record<SenderType, IntegrationType> = { email: 'smtp', phone: 'twilio' };

export const senderInputSchema = z
  .object({
    integration_id: z
      .number({ error: (i) => (i.input == null ? MESSAGES.required : 'Choose an integration') })
      .int()
      .positive(),
    type: z.enum(SENDER_TYPES, { error: (i) => (i.input === undefined ? MESSAGES.required : SENDER_MESSAGES.type) }),
    value: requiredText(254),
    /** Email senders only (the display name); dropped for phone senders. */
    name: optionalText(100),
    note: optionalText(1000),
  })
  .strict()
  .superRefine(
    (v, ctx) => {
      if (v && (v.type === 'email' || v.type === 'phone') && typeof v.value === 'string' && v.value) {
        const problem = addressError(v.type, v.value);
        if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
      }
    },
    { when: () => true },
  );
export type SenderInput = z.infer<typeof senderInputSchema>;

/** PUT/PATCH: the integration and type are fixed at creation; the value is checked against the sender's type. */
export const senderUpdateSchema = z.object({ value: requiredText(254), name: optionalText(100), note: optionalText(1000) }).strict();
export type SenderUpdate = z.infer<typeof senderUpdateSchema>;

export const senderSchema = answer({
  id: whole(),
  integration_id: whole(),
  integration: namedRef({ type: z.enum(INTEGRATION_TYPES) })
    .nullable()
    .describe('Read-only: the integration it sends through'),
  type: z.enum(SENDER_TYPES),
  value: z.string(),
  name: z.string().nullable(),
  note: z.string().nullable(),
  priority: whole(),
  domain_state: z
    .enum(SENDER_DOMAIN_STATES)
    .describe("Read-only: the address's domain among the organisation's sending domains (verified, broken, unverified); unknown for SMS senders"),
  ...stampsShape,
});
export type Sender = z.infer<typeof senderSchema>;
