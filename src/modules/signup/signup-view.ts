import type { signups } from '../../db/schema';
import type { Env } from '../../env';
import type { SignupStatus, SignupView } from '../../shared/contracts/signup';
import { stripeCheckoutUrl, testCheckoutUrl } from './payment';

type SignupRow = typeof signups.$inferSelect;

/** A sign-up as the API shows it; the checkout URL only while payment is still due. */
export async function signupView(env: Env, row: SignupRow, checkoutUrl?: string): Promise<SignupView> {
  let url = checkoutUrl ?? '';
  if (checkoutUrl === undefined && row.status === 'pending') {
    url = row.paymentProvider === 'stripe' ? (row.checkoutRef ? await stripeCheckoutUrl(env, row.checkoutRef) : '') : testCheckoutUrl(env, row.id);
  }
  return {
    id: row.id,
    status: row.status as SignupStatus,
    amount: row.amountCents,
    currency: row.currency,
    checkout_url: url,
    email: row.email,
    domain: row.domain,
  };
}
