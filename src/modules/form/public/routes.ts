import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AppEnv } from '../../../context';
import { orgOrigin } from '../../../lib/org-url';
import { sha256Hex } from '../../../lib/tokens';
import { FORM_LIMITS, FORM_POST_FIELDS } from '../../../shared/contracts/form';
import type { LanguageCode } from '../../../shared/languages';
import { sendOrgMail } from '../org-mail';
import { confirmConsent, consentOfToken } from './confirm';
import { defaultConfirmMail, templateConfirmMail } from './confirm-mail';
import { clientIp, ipHash } from './ip-hash';
import { throughFloodGate } from './flood-gate';
import { within } from './limits';
import { pageHeaders, type PolicyOptions } from './page-policy';
import { readPublicForm, type PublicForm } from './read-form';
import { confirmPage, formPage, messagePage } from './render';
import { hostOrganization, limitedBody, originAllowed } from './request';
import { writeSignup } from './signup';
import { formTranslator, visitorLanguage, type FormKey, type FormTranslator } from './strings';
import { checkSubmission } from './submission';
import { turnstileEnabled, turnstileScript, verifyTurnstile } from './turnstile';

// The hosted form at the organisation's host (plain html, no console):
//   GET  /f/:key          the form, in the visitor's language; the Turnstile widget when configured
//   POST /f/:key          a sign-up (application/x-www-form-urlencoded, FORM_POST_FIELDS): from the hosted page or an embed
//   GET  /f/confirm?t=    the confirmation link's page: one button, changes nothing (mail scanners open links)
//   POST /f/confirm       the button: confirms (confirm.ts)
// The checks of a post, in order: the body's size (413, unread), the form (404: another organisation's key is not
// found), on (403), Origin (403), the IP's limit (429), the honeypot (the success answer, nothing written or sent),
// the Turnstile token when one came (403 refused), the fields (422, the page again with messages), the form's and
// the organisation's limits (429), then at most one confirmation mail per address and form per hour (a repeat gets
// the same answer and nothing) and the platform's hourly cap. Bots: a post without a token (a plain html embed,
// JavaScript off) is accepted under the tokenless limits (limits.ts) and always double opt-in. The answer to a sign-up
// is the same for a new, pending or known address.

type Ctx = Context<AppEnv>;

async function page(c: Ctx, body: string | Promise<string>, status: 200 | 403 | 404 | 410 | 413 | 422 | 429 | 503, policy?: PolicyOptions) {
  return c.html(await body, status, await pageHeaders(policy));
}

function languageOf(c: Ctx, asked?: string | null): { language: LanguageCode; t: FormTranslator } {
  const language = visitorLanguage(asked ?? c.req.query('lang'), c.req.header('accept-language'));
  return { language, t: formTranslator(language) };
}

function notFound(c: Ctx) {
  const { language, t } = languageOf(c);
  return page(c, messagePage(language, t('notFoundTitle'), t('notFoundText'), 'plain', 'form-not-found'), 404);
}

/** The redirect after a sign-up, when the form has one on its allowed origins (checked again here: no open redirect). */
function redirectOf(c: Ctx, form: PublicForm): URL | null {
  if (!form.redirectUrl) return null;
  try {
    const url = new URL(form.redirectUrl);
    const allowed = [...form.allowedOrigins, orgOrigin(c.env, c.var.org.domain)].map((o) => o.toLowerCase().replace(/\/+$/, ''));
    return allowed.includes(url.origin.toLowerCase()) ? url : null;
  } catch {
    return null;
  }
}

/** The one answer of an accepted post, whoever the address belongs to (and of a post whose honeypot was filled). */
function success(c: Ctx, form: PublicForm, language: LanguageCode, t: FormTranslator, confirmedNow: boolean) {
  const redirect = redirectOf(c, form);
  if (redirect) return c.redirect(redirect.toString(), 303);
  const text = form.successMessage || t(confirmedNow ? 'successSingle' : 'successDouble');
  return page(c, messagePage(language, form.name, text, 'ok', 'form-success'), 200);
}

function widgetOf(c: Ctx) {
  if (!turnstileEnabled(c.env)) return { turnstile: null, policy: {} };
  const script = turnstileScript(c.env);
  return { turnstile: { siteKey: c.env.TURNSTILE_SITE_KEY!, scriptUrl: script.url }, policy: { turnstileOrigin: script.origin } };
}

/** Sends the confirmation mail of a double opt-in sign-up (the form's template, else the default in the visitor's language). */
async function mailConfirmation(
  c: Ctx,
  form: PublicForm,
  t: FormTranslator,
  signup: { contactId: number; consentId: number; token: string },
  to: string,
  subscriptionIds: number[],
) {
  const org = c.var.org;
  const facts = {
    organization: { name: org.name, domain: org.domain },
    subscriptions: form.subscriptions.filter((s) => subscriptionIds.includes(s.id)).map((s) => s.name),
    confirmUrl: `${orgOrigin(c.env, org.domain)}/f/confirm?t=${signup.token}`,
  };
  const content = (form.templateId ? await templateConfirmMail(c.var.db, org.id, form.templateId, facts) : null) ?? (await defaultConfirmMail(t, facts));
  await sendOrgMail(c.env, c.var.db, {
    orgId: org.id,
    senderId: form.senderId,
    to,
    contactId: signup.contactId,
    subject: content.subject,
    html: content.html,
    text: content.text,
    templateId: content.templateId,
    metadata: { purpose: 'form-confirmation', form_id: String(form.id), consent_id: String(signup.consentId) },
  });
}

export const formPublicRoutes = new Hono<AppEnv>()
  .get('/confirm', async (c) => {
    if (!(await hostOrganization(c))) return notFound(c);
    const { language, t } = languageOf(c);
    const token = c.req.query('t') ?? '';
    const state = await consentOfToken(c, token);
    if (state.kind === 'invalid') return page(c, messagePage(language, t('linkInvalidTitle'), t('linkInvalidText'), 'error', 'confirm-invalid'), 404);
    if (state.kind === 'expired') return page(c, messagePage(language, t('linkInvalidTitle'), t('linkExpired'), 'error', 'confirm-expired'), 410);
    if (state.kind === 'confirmed') return page(c, messagePage(language, t('confirmTitle'), t('alreadyConfirmed'), 'ok', 'confirm-already'), 200);
    return page(c, confirmPage(language, t, token, c.var.org.name, state.subscriptions.join(', ')), 200);
  })
  .post('/confirm', async (c) => {
    if (!(await hostOrganization(c))) return notFound(c);
    const { language, t } = languageOf(c);
    const body = await limitedBody(c, FORM_LIMITS.bodyBytes);
    if (body === null) return page(c, messagePage(language, t('confirmTitle'), t('tooLarge'), 'error', 'form-too-large'), 413);
    const ip = clientIp((name) => c.req.header(name));
    const ipH = await ipHash(c.env, ip);
    if (!(await within(c.var.db, 'confirmIp', ipH ?? 'none')))
      return page(c, messagePage(language, t('confirmTitle'), t('limited'), 'error', 'form-limited'), 429);
    const state = await consentOfToken(c, new URLSearchParams(body).get('t'));
    if (state.kind === 'invalid') return page(c, messagePage(language, t('linkInvalidTitle'), t('linkInvalidText'), 'error', 'confirm-invalid'), 404);
    if (state.kind === 'expired') return page(c, messagePage(language, t('linkInvalidTitle'), t('linkExpired'), 'error', 'confirm-expired'), 410);
    if (state.kind === 'confirmed') return page(c, messagePage(language, t('confirmTitle'), t('alreadyConfirmed'), 'ok', 'confirm-already'), 200);
    const done = await confirmConsent(c, state, { userAgent: c.req.header('user-agent') ?? null, ipHash: ipH });
    const text = done === 'confirmed' ? t('confirmed') : t('alreadyConfirmed');
    return page(c, messagePage(language, t('confirmTitle'), text, 'ok', done === 'confirmed' ? 'confirm-done' : 'confirm-already'), 200);
  })
  .get('/:key', async (c) => {
    const org = await hostOrganization(c);
    const form = org ? await readPublicForm(c.var.db, org.id, c.req.param('key')) : null;
    if (!org || !form) return notFound(c);
    const { language, t } = languageOf(c);
    if (!form.enabled) return page(c, messagePage(language, form.name, t('closed'), 'plain', 'form-closed'), 403);
    const { turnstile, policy } = widgetOf(c);
    const redirect = redirectOf(c, form);
    return page(c, formPage({ language, t, organization: org.name, publicKey: c.req.param('key'), form, turnstile }), 200, {
      ...policy,
      redirectOrigin: redirect?.origin ?? null,
    });
  })
  .post('/:key', async (c) => {
    if (!(await throughFloodGate(c.env, clientIp(c.req.header.bind(c.req))))) {
      const { language, t } = languageOf(c);
      return page(c, messagePage(language, t('limitedTitle'), t('limited'), 'error', 'form-limited'), 429);
    }
    const org = await hostOrganization(c);
    if (!org) return notFound(c);
    let { language, t } = languageOf(c);
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > FORM_LIMITS.bodyBytes)
      return page(c, messagePage(language, t('notFoundTitle'), t('tooLarge'), 'error', 'form-too-large'), 413);
    const key = c.req.param('key');
    const form = await readPublicForm(c.var.db, org.id, key);
    if (!form) return notFound(c);
    if (!form.enabled) return page(c, messagePage(language, form.name, t('closed'), 'plain', 'form-closed'), 403);
    if (!originAllowed(c, org, form.allowedOrigins)) return page(c, messagePage(language, form.name, t('originRefused'), 'error', 'form-origin'), 403);
    const body = await limitedBody(c, FORM_LIMITS.bodyBytes);
    if (body === null) return page(c, messagePage(language, form.name, t('tooLarge'), 'error', 'form-too-large'), 413);
    const post = new URLSearchParams(body);
    ({ language, t } = languageOf(c, post.get(FORM_POST_FIELDS.language)));

    const db = c.var.db;
    const ip = clientIp((name) => c.req.header(name));
    const ipH = await ipHash(c.env, ip);
    const token = post.get(FORM_POST_FIELDS.turnstile)?.trim() ?? '';
    // A token counts only where it can be checked; without the secret every post takes the tokenless path.
    let verified = token !== '' && Boolean(c.env.TURNSTILE_SECRET_KEY);
    let confirmNow = verified && !form.doubleOptIn;
    const { turnstile, policy } = widgetOf(c);
    const again = (status: 403 | 422 | 429 | 503, extra: { errors?: Record<string, FormKey>; alert?: string }) =>
      page(c, formPage({ language, t, organization: org.name, publicKey: key, form, turnstile, post, ...extra }), status, policy);

    if (!(await within(db, verified ? 'ipVerified' : 'ipTokenless', ipH ?? 'none'))) return again(429, { alert: t('limited') });
    if ((post.get(FORM_POST_FIELDS.honeypot) ?? '') !== '') return success(c, form, language, t, confirmNow);
    if (verified) {
      const verdict = await verifyTurnstile(c.env, token, ip);
      if (verdict === 'refused') return again(403, { alert: t('verifyFailed') });
      // siteverify not answering loses no sign-up: the post is taken as one without a token (its tighter limits,
      // always double opt-in), which the form accepts anyway.
      if (verdict === 'unavailable') {
        verified = false;
        confirmNow = false;
        if (!(await within(db, 'ipTokenless', ipH ?? 'none'))) return again(429, { alert: t('limited') });
      }
    }
    const checked = checkSubmission(form, post);
    if (!checked.ok) return again(422, { errors: checked.errors });
    const path = verified ? 'Verified' : 'Tokenless';
    if (!(await within(db, `form${path}`, form.id)) || !(await within(db, `org${path}`, org.id))) return again(429, { alert: t('limited') });

    const values = checked.values;
    if (!confirmNow) {
      // One confirmation mail per address and form an hour: a repeat answers the same, and nothing is written or sent.
      if (!(await within(db, 'mailPerAddress', `${form.id}:${await sha256Hex(values.email)}`))) return success(c, form, language, t, confirmNow);
      if (!(await within(db, 'platformMails', 'all'))) return again(503, { alert: t('unavailable') });
    }
    const signup = await writeSignup(c, { form, values, confirmNow, userAgent: c.req.header('user-agent') ?? null, ipHash: ipH });
    if (signup.token) await mailConfirmation(c, form, t, { ...signup, token: signup.token }, values.email, values.subscriptionIds);
    return success(c, form, language, t, confirmNow);
  });
