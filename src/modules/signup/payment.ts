import Stripe from 'stripe';
import type { Env } from '../../env';
import { platformOrigin } from '../../lib/org-url';

// Where a sign-up is paid: Stripe Checkout when STRIPE_SECRET_KEY is set, else the built-in test checkout
// (a console page on the platform host that confirms through POST /signup/{id}/test-payment).

export interface SignupForCheckout {
  id: string;
  email: string;
  orgName: string;
  domain: string;
  amountCents: number;
  currency: string;
}

/** True when payments go through Stripe. */
export const usesStripe = (env: Pick<Env, 'STRIPE_SECRET_KEY'>) => Boolean(env.STRIPE_SECRET_KEY);

function stripeClient(env: Pick<Env, 'STRIPE_SECRET_KEY'>): Stripe {
  return new Stripe(env.STRIPE_SECRET_KEY!, { httpClient: Stripe.createFetchHttpClient() });
}

/** The amount and currency due at sign-up (SIGNUP_AMOUNT_CENTS, default 2900; SIGNUP_CURRENCY, default usd). */
export function signupPrice(env: Pick<Env, 'SIGNUP_AMOUNT_CENTS' | 'SIGNUP_CURRENCY'>): { amountCents: number; currency: string } {
  const amount = Number(env.SIGNUP_AMOUNT_CENTS);
  const currency = (env.SIGNUP_CURRENCY ?? '').trim().toLowerCase();
  return {
    amountCents: Number.isSafeInteger(amount) && amount > 0 ? amount : 2900,
    currency: /^[a-z]{3}$/.test(currency) ? currency : 'usd',
  };
}

/** The test checkout page of a sign-up (no Stripe configured). */
export const testCheckoutUrl = (env: Pick<Env, 'PUBLIC_URL'>, id: string) => `${platformOrigin(env)}/signup/checkout/${id}`;

/** Opens a Stripe Checkout Session for the sign-up; returns its id and the URL the browser goes to. */
export async function createStripeCheckout(env: Env, signup: SignupForCheckout): Promise<{ ref: string; url: string }> {
  const origin = platformOrigin(env);
  const session = await stripeClient(env).checkout.sessions.create({
    mode: 'payment',
    client_reference_id: signup.id,
    customer_email: signup.email,
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: signup.currency,
          unit_amount: signup.amountCents,
          product_data: { name: `Relay account: ${signup.orgName} (${signup.domain})` },
        },
      },
    ],
    success_url: `${origin}/signup/done?id=${signup.id}`,
    cancel_url: `${origin}/signup?cancelled=1`,
  });
  if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
  return { ref: session.id, url: session.url };
}

/** The URL of an open Stripe Checkout Session, or '' when it is gone or Stripe cannot be reached. */
export async function stripeCheckoutUrl(env: Env, ref: string): Promise<string> {
  try {
    const session = await stripeClient(env).checkout.sessions.retrieve(ref);
    return session.status === 'open' ? (session.url ?? '') : '';
  } catch {
    return '';
  }
}

/**
 * Verifies a Stripe webhook (raw body and stripe-signature header, STRIPE_WEBHOOK_SECRET) and returns the event;
 * throws when the signature is missing, wrong or too old.
 */
export function verifyStripeEvent(body: string, signature: string, secret: string): Promise<Stripe.Event> {
  return Stripe.webhooks.constructEventAsync(body, signature, secret, undefined, Stripe.createSubtleCryptoProvider());
}
