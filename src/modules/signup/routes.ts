import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { signups } from '../../db/schema';
import { ApiError, notFound, validationFailed } from '../../lib/api-error';
import { hashPassword } from '../../lib/password';
import { hit, type Limit } from '../../lib/rate-limit';
import { validJson } from '../../lib/validate';
import { signupSchema } from '../../shared/contracts/signup';
import { MESSAGES } from '../../shared/messages';
import { readSignupSettings } from '../platform-settings/settings';
import { confirmPayment } from './confirm';
import { domainIsFree } from './domain-free';
import { invitedEmail } from './invite';
import { createStripeCheckout, signupPrice, testCheckoutUrl, usesStripe, verifyStripeEvent } from './payment';
import { signupView } from './signup-view';

/** Sign-ups one network address may start in an hour. */
export const SIGNUPS_PER_ADDRESS: Limit = { max: 20, windowSeconds: 3600 };

/** How long a sign-up waits for its payment (and holds its domain). */
export const SIGNUP_TTL_MS = 24 * 3_600_000;

const SIGNUP_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** /signup (platform host): become a client, payment, status. */
export const signupRoutes = new Hono<AppEnv>()
  .post('/stripe-webhook', async (c) => {
    const secret = c.env.STRIPE_WEBHOOK_SECRET;
    if (!secret) throw notFound();
    const body = await c.req.text();
    const signature = c.req.header('stripe-signature') ?? '';
    let event: Awaited<ReturnType<typeof verifyStripeEvent>>;
    try {
      event = await verifyStripeEvent(body, signature, secret);
    } catch {
      throw new ApiError(400, 'webhook_invalid', 'The webhook signature is invalid');
    }
    // Card payments arrive paid with checkout.session.completed; delayed methods (SEPA, ACH) arrive completed
    // but unpaid, then paid with checkout.session.async_payment_succeeded.
    if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') {
      return c.json({ data: { received: true, handled: false } });
    }
    const session = event.data.object;
    if (session.payment_status !== 'paid' || !session.client_reference_id) return c.json({ data: { received: true, handled: false } });
    const outcome = await confirmPayment(c.env, c.var.db, session.client_reference_id);
    return c.json({ data: { received: true, handled: true, outcome } });
  })
  .post('/', validJson(signupSchema), async (c) => {
    const input = c.req.valid('json');
    const settings = await readSignupSettings(c.env, c.var.db);
    if (!settings['signup.enabled']) throw new ApiError(404, 'registration_closed', MESSAGES.registrationClosed);
    const email = input.user.email.toLowerCase();
    if (!settings['signup.active']) {
      const invited = input.invite ? await invitedEmail(c.env, input.invite) : null;
      if (invited === null) throw new ApiError(409, 'registration_paused', MESSAGES.registrationPaused);
      if (invited !== email) throw validationFailed({ 'user.email': ['This invitation is for another email address'] });
    }
    // An unpaid sign-up holds its domain for a day: limit how many one network address can start.
    const ip = c.req.header('cf-connecting-ip');
    const started = ip ? await hit(c.var.db, `signup-ip:${ip}`, SIGNUPS_PER_ADDRESS) : null;
    if (started && started.count > SIGNUPS_PER_ADDRESS.max) {
      throw new ApiError(429, 'rate_limited', MESSAGES.rateLimited, undefined, { 'Retry-After': String(started.retryAfter) });
    }
    const domain = input.organization.domain;
    if (!(await domainIsFree(c.var.db, domain, email))) throw validationFailed({ 'organization.domain': [MESSAGES.duplicate] });

    const { amountCents, currency } = signupPrice(c.env);
    const stripe = usesStripe(c.env);
    const id = crypto.randomUUID();
    const row = {
      id,
      name: input.user.name,
      email,
      passwordHash: await hashPassword(input.user.password),
      orgName: input.organization.name,
      domain,
      amountCents,
      currency,
      paymentProvider: stripe ? 'stripe' : 'test',
      expiresAt: new Date(Date.now() + SIGNUP_TTL_MS).toISOString(),
    };
    let checkoutUrl = testCheckoutUrl(c.env, id);
    let checkoutRef: string | null = null;
    if (stripe) {
      try {
        ({ url: checkoutUrl, ref: checkoutRef } = await createStripeCheckout(c.env, { id, email, orgName: row.orgName, domain, amountCents, currency }));
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', signup: id, error: `Stripe checkout: ${String(error)}` }));
        throw new ApiError(409, 'payment_failed', 'The payment could not be started. Try again later.');
      }
    }
    const [created] = await c.var.db
      .insert(signups)
      .values({ ...row, checkoutRef })
      .returning();
    return c.json({ data: await signupView(c.env, created, checkoutUrl) }, 201);
  })
  .get('/:id', async (c) => {
    const row = await findSignup(c.var.db, c.req.param('id'));
    return c.json({ data: await signupView(c.env, row) });
  })
  .post('/:id/test-payment', async (c) => {
    if (usesStripe(c.env)) throw notFound();
    const row = await findSignup(c.var.db, c.req.param('id'));
    if (row.paymentProvider !== 'test') throw notFound();
    if (row.status === 'pending' && Date.parse(row.expiresAt) < Date.now()) {
      throw new ApiError(409, 'conflict', 'This sign-up has expired: start again.');
    }
    await confirmPayment(c.env, c.var.db, row.id);
    return c.json({ data: await signupView(c.env, await findSignup(c.var.db, row.id)) });
  });

async function findSignup(db: AppEnv['Variables']['db'], id: string) {
  if (!SIGNUP_ID.test(id)) throw notFound();
  const [row] = await db.select().from(signups).where(eq(signups.id, id)).limit(1);
  if (!row) throw notFound();
  return row;
}
