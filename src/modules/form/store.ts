import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { consents, type forms } from '../../db/schema';
import { orgOrigin } from '../../lib/org-url';
import { randomBase62 } from '../../lib/tokens';
import { formFieldSchema, type Form, type FormInput } from '../../shared/contracts/form';

// A form's row to and from its API shape (src/shared/contracts/form.ts). The JSON columns are written only here.

type Ctx = Context<AppEnv>;
export type FormRow = typeof forms.$inferSelect;

/** Length of the public key in /f/<key>: 22 base62 characters, ~131 bits, not guessable or countable. */
const PUBLIC_KEY_LENGTH = 22;

/** The hosted page of a form at the organisation's own host. */
export const hostedFormUrl = (env: { PUBLIC_URL: string }, orgDomain: string, publicKey: string) => `${orgOrigin(env, orgDomain)}/f/${publicKey}`;

/** Row values of the fields given (a PATCH gives some); a new form also gets its public key. */
export function formValues(input: Partial<FormInput>, isNew: boolean): Partial<typeof forms.$inferInsert> {
  const out: Partial<typeof forms.$inferInsert> = {};
  if (isNew) out.publicKey = randomBase62(PUBLIC_KEY_LENGTH);
  if (input.name !== undefined) out.name = input.name;
  if (input.subscription_ids !== undefined) out.subscriptionIds = JSON.stringify(input.subscription_ids);
  if (input.fields !== undefined) out.fields = JSON.stringify(input.fields.map((f) => (f.kind === 'custom' ? f : { kind: f.kind, required: f.required })));
  if (input.double_opt_in !== undefined) out.doubleOptIn = input.double_opt_in;
  if (input.success_message !== undefined) out.successMessage = input.success_message ?? null;
  if (input.redirect_url !== undefined) out.redirectUrl = input.redirect_url || null;
  if (input.allowed_origins !== undefined) out.allowedOrigins = JSON.stringify(input.allowed_origins);
  if (input.sender_id !== undefined) out.senderId = input.sender_id ?? null;
  if (input.template_id !== undefined) out.templateId = input.template_id ?? null;
  if (input.enabled !== undefined) out.enabled = input.enabled;
  return out;
}

const parsed = <T>(text: string, fallback: T): T => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/** Sign-ups per form: confirmed ones, and pending ones not yet expired. */
async function signupCounts(c: Ctx, ids: number[]): Promise<Map<number, { pending: number; confirmed: number }>> {
  if (!ids.length) return new Map();
  const now = new Date().toISOString();
  const counted = await c.var.db
    .select({
      formId: consents.formId,
      confirmed: sql<number>`sum(${consents.confirmedAt} IS NOT NULL)`,
      pending: sql<number>`sum(${consents.confirmedAt} IS NULL AND ${consents.expiresAt} > ${now})`,
    })
    .from(consents)
    .where(and(eq(consents.orgId, c.var.org.id), inArray(consents.formId, ids)))
    .groupBy(consents.formId);
  return new Map(counted.map((r) => [Number(r.formId), { pending: Number(r.pending ?? 0), confirmed: Number(r.confirmed ?? 0) }]));
}

export async function presentForms(c: Ctx, rows: FormRow[]): Promise<Form[]> {
  const counts = await signupCounts(
    c,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    public_key: row.publicKey,
    name: row.name,
    subscription_ids: parsed<number[]>(row.subscriptionIds, []),
    fields: parsed<unknown[]>(row.fields, []).flatMap((f) => {
      const field = formFieldSchema.safeParse(f);
      return field.success ? [field.data] : [];
    }),
    double_opt_in: row.doubleOptIn,
    success_message: row.successMessage,
    redirect_url: row.redirectUrl,
    allowed_origins: parsed<string[]>(row.allowedOrigins, []),
    sender_id: row.senderId,
    template_id: row.templateId,
    enabled: row.enabled,
    url: hostedFormUrl(c.env, c.var.org.domain, row.publicKey),
    signups: counts.get(row.id) ?? { pending: 0, confirmed: 0 },
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}
