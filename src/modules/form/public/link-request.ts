import type { Context } from 'hono';
import { Hono } from 'hono';
import { sql } from 'drizzle-orm';
import type { AppEnv } from '../../../context';
import { preferencesUrl, PREFERENCES_LINK_DAYS } from '../../../lib/templating/preferences-link';
import { sha256Hex } from '../../../lib/tokens';
import { addressError, normalizeAddress } from '../../../shared/address';
import { FORM_LIMITS, FORM_POST_FIELDS } from '../../../shared/contracts/form';
import { sendOrgMail } from '../org-mail';
import { html } from 'hono/html';
import { clientIp, ipHash } from './ip-hash';
import { throughFloodGate } from './flood-gate';
import { within } from './limits';
import { pageHeaders } from './page-policy';
import { linkRequestPage, messagePage } from './render';
import { hostOrganization, limitedBody, originAllowed } from './request';
import { formTranslator, visitorLanguage, type FormTranslator } from './strings';

// "Send me my link" at the organisation's host: GET /preferences asks for an address, POST /preferences mails a fresh
// contact-scoped link to the preferences page (src/lib/templating/preferences-link.ts) when the address is a
// contact's, through the organisation's sender (org-mail.ts). The answer is the same for known and unknown
// addresses, and so are the limits (per IP, one mail per address an hour, per organisation, the platform's cap):
// the page cannot be used to test who is on a list.

type Ctx = Context<AppEnv>;

function languageOf(c: Ctx, asked?: string | null) {
  const language = visitorLanguage(asked ?? c.req.query('lang'), c.req.header('accept-language'));
  return { language, t: formTranslator(language) };
}

/** The mail with the link: the organisation's name and the link, nothing else. */
async function linkMail(t: FormTranslator, organization: string, url: string) {
  const values = { organization, days: PREFERENCES_LINK_DAYS };
  const intro = t('linkMailIntro', values);
  const body = await html`<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#212529;line-height:1.5">
<p>${intro}</p>
<p><a href="${url}" style="display:inline-block;padding:10px 18px;background:#1864ab;color:#fff;border-radius:6px;text-decoration:none;font-weight:600">${t('linkMailButton')}</a></p>
<p style="color:#5c636a;font-size:14px">${t('mailFallback')}<br><a href="${url}">${url}</a></p>
<p style="color:#5c636a;font-size:14px">${t('linkMailIgnore')}</p>
</body></html>`;
  return { subject: t('linkMailSubject', values), html: body.toString(), text: `${intro}\n\n${url}\n\n${t('linkMailIgnore')}\n` };
}

export const linkRequestRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const org = await hostOrganization(c);
    const { language, t } = languageOf(c);
    if (!org) return c.html(await messagePage(language, t('notFoundTitle'), t('notFoundText'), 'plain', 'form-not-found'), 404, await pageHeaders());
    return c.html(await linkRequestPage(language, t, org.name, {}), 200, await pageHeaders());
  })
  .post('/', async (c) => {
    let { language, t } = languageOf(c);
    const headers = await pageHeaders();
    if (!(await throughFloodGate(c.env, clientIp(c.req.header.bind(c.req)))))
      return c.html(await messagePage(language, t('limitedTitle'), t('limited'), 'error', 'form-limited'), 429, headers);
    const org = await hostOrganization(c);
    const say = async (status: 403 | 404 | 413 | 429 | 503, text: string, testId: string) =>
      c.html(await messagePage(language, t('linkTitle'), text, 'error', testId), status, headers);
    if (!org) return c.html(await messagePage(language, t('notFoundTitle'), t('notFoundText'), 'plain', 'form-not-found'), 404, headers);
    if (!originAllowed(c, org, [])) return say(403, t('originRefused'), 'form-origin');
    const body = await limitedBody(c, FORM_LIMITS.bodyBytes);
    if (body === null) return say(413, t('tooLarge'), 'form-too-large');
    const post = new URLSearchParams(body);
    ({ language, t } = languageOf(c, post.get(FORM_POST_FIELDS.language)));
    const sent = async () => c.html(await linkRequestPage(language, t, org.name, { sent: true }), 200, headers);

    const db = c.var.db;
    const ip = clientIp((name) => c.req.header(name));
    if (!(await within(db, 'linkIp', (await ipHash(c.env, ip)) ?? 'none'))) return say(429, t('limited'), 'form-limited');
    if ((post.get(FORM_POST_FIELDS.honeypot) ?? '') !== '') return sent();
    const raw = (post.get(FORM_POST_FIELDS.email) ?? '').trim();
    if (!raw || addressError('email', raw)) {
      const error = raw ? ('emailInvalid' as const) : ('fieldRequired' as const);
      return c.html(await linkRequestPage(language, t, org.name, { email: raw.slice(0, 254), error }), 422, headers);
    }
    const email = normalizeAddress('email', raw);
    // The same for known and unknown addresses: one a hour per address, then the same answer and nothing sent.
    if (!(await within(db, 'linkPerAddress', `${org.id}:${await sha256Hex(email)}`))) return sent();
    if (!(await within(db, 'linkOrg', org.id)) || !(await within(db, 'platformMails', 'all'))) return say(429, t('limited'), 'form-limited');
    const contact = await db.get<{ contact_id: number } | undefined>(sql`
      SELECT contact_id FROM contact_addresses WHERE org_id = ${org.id} AND type = 'email' AND value = ${email}`);
    if (contact) {
      const url = await preferencesUrl(c.env, org.domain, { orgId: org.id, contactId: contact.contact_id });
      const mail = await linkMail(t, org.name, url);
      await sendOrgMail(c.env, db, { orgId: org.id, to: email, contactId: contact.contact_id, ...mail, metadata: { purpose: 'preferences-link' } });
    }
    return sent();
  });
