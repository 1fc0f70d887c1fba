import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { ApiError } from '../../lib/api-error';
import { hashPassword } from '../../lib/password';
import { newPasswordSchema } from '../../shared/contracts/password';
import { orgDomainSchema } from '../../shared/contracts/signup';
import { emailText, requiredText } from '../../shared/zod-helpers';
import { rawBatch } from '../crud/raw-batch';
import { domainIsFree } from '../signup/domain-free';

// POST /operator/organizations: the operator makes an organisation and its first user directly (no payment, no
// completion mail): for a customer set up by hand, and for `npm run smoke`, which checks a deployed platform with an
// organisation of its own. The user signs in at once with the given password.

export const operatorOrganizationSchema = z
  .object({
    name: requiredText(200),
    domain: orgDomainSchema,
    user: z.object({ name: requiredText(200), email: emailText(), password: newPasswordSchema }).strict(),
  })
  .strict();
export type OperatorOrganization = z.infer<typeof operatorOrganizationSchema>;

/** Creates the organisation and its user in one batch; 409 when the domain is taken. */
export async function createOrganization(db: Database, input: OperatorOrganization): Promise<{ id: number; domain: string; user_id: number }> {
  const username = input.user.email.trim().toLowerCase();
  if (!(await domainIsFree(db, input.domain, username))) throw new ApiError(409, 'conflict', 'An organisation has this domain already');
  const hash = await hashPassword(input.user.password);
  // Both rows or neither: the user's insert finds the organisation the same batch made.
  const [, users] = await rawBatch(db, [
    db.run(sql`INSERT INTO organizations (name, domain) VALUES (${input.name}, ${input.domain})`),
    db.run(sql`INSERT INTO users (org_id, name, username, email, password_hash)
      SELECT id, ${input.user.name}, ${username}, ${username}, ${hash} FROM organizations WHERE domain = ${input.domain} RETURNING id, org_id`),
  ]);
  const user = users.results[0] as { id: number; org_id: number };
  return { id: user.org_id, domain: input.domain, user_id: user.id };
}
