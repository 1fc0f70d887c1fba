import { z } from 'zod';
import { answer, whole } from '../answer-schema';
import { MESSAGES } from '../messages';
import { orgDomainProblem } from '../org-domain';
import { emailText, requiredText } from '../zod-helpers';
import { newPasswordSchema } from './password';

// Sign-up ("become a client") and pre-registration: platform calls, made on the bare platform host.

export const orgDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((value, ctx) => {
    const problem = orgDomainProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** POST /signup: user profile, organisation profile; answers where to pay. */
export const signupSchema = z
  .object({
    user: z.object({ name: requiredText(200), email: emailText(), password: newPasswordSchema }).strict(),
    organization: z.object({ name: requiredText(200), domain: orgDomainSchema }).strict(),
    /** The invitation of an approved pre-registration: lets its email sign up while registration is paused. */
    invite: z.string().trim().max(2000).optional(),
  })
  .strict();

/** failed: paid, but the domain was taken meanwhile (no account was created; the operator refunds). */
export const SIGNUP_STATUSES = ['pending', 'paid', 'completed', 'failed'] as const;
export type SignupStatus = (typeof SIGNUP_STATUSES)[number];

/** The answer to POST /signup and GET /signup/{id}. */
export const signupViewSchema = answer({
  id: z.string(),
  status: z.enum(SIGNUP_STATUSES),
  amount: whole().describe("In the currency's minor unit: 2900 is 29.00"),
  currency: z.string(),
  checkout_url: z.string().describe('Where the browser goes to pay: Stripe Checkout, or the built-in test checkout (empty once paid)'),
  email: z.string(),
  domain: z.string(),
});
export type SignupView = z.infer<typeof signupViewSchema>;

/** POST /internal-user/sign-complete on the new organisation's host: the emailed code. */
export const signCompleteSchema = z.object({ code: z.string().trim().min(1, MESSAGES.required).max(200) }).strict();

/** POST /pre-registration while registration is paused. */
export const preRegistrationSchema = z
  .object({
    name: requiredText(200),
    email: emailText(),
    organization: requiredText(200),
    domain: orgDomainSchema.optional(),
    comments: requiredText(4000),
  })
  .strict();

export type PreRegistrationStatus = 'pending' | 'approved' | 'declined';

/** A pre-registration request as the operator API shows it. */
export interface PreRegistrationView {
  id: number;
  name: string;
  email: string;
  organization: string;
  domain: string | null;
  comments: string;
  status: PreRegistrationStatus;
  review_note: string | null;
  reviewed_at: string | null;
  created_at: string;
}

/** Operator review of a pre-registration request. */
export const preRegistrationReviewSchema = z.object({ note: z.string().trim().max(2000).optional() }).strict();
