// The mail the platform sends about an organisation's sending domains, to every user of the organisation (there are
// no roles): once when a domain breaks, and when another organisation took a domain over. Plain text plus simple
// HTML, in English, like the platform's other mails (src/modules/signup/mails.ts).
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organizations, users } from '../../db/schema';
import type { Env } from '../../env';
import { orgUrl } from '../../lib/org-url';
import { mailAddressOf } from '../account/own-user';
import { queueSystemMail, type SystemMail } from '../system-mail/queue-mail';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

function mail(subject: string, paragraphs: string[], link: { href: string; label: string }): Omit<SystemMail, 'to'> {
  const html = `<!doctype html>\n<html><body style="font-family: sans-serif">\n${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>\n</body></html>`;
  return { subject, text: `${paragraphs.join('\n\n')}\n\n${link.href}\n`, html };
}

/** Which needed records a check found broken, in words. */
const RECORD_WORDS = { verification: 'the verification record', dkim: 'the DKIM key record' } as const;

export function domainBrokenMail(domain: string, orgName: string, broken: (keyof typeof RECORD_WORDS)[], link: string) {
  return mail(
    `${domain}: a DNS record of your sending domain is broken`,
    [
      `A check of ${domain}, a sending domain of ${orgName}, found ${broken.map((k) => RECORD_WORDS[k]).join(' and ')} missing or changed.`,
      'Until it is fixed, receivers may reject or flag mail from this domain. Publish the record again as the Domains screen shows it, then press "Check now".',
      'You get this mail once for this break.',
    ],
    { href: link, label: 'Open the Domains screen' },
  );
}

export function domainLostMail(domain: string, orgName: string, link: string) {
  return mail(
    `${domain} is now verified by another organisation`,
    [
      `The verification record of ${domain} was missing for more than 72 hours, and another organisation proved control of the domain.`,
      `${orgName} no longer signs mail from ${domain}. If the domain is yours, publish its verification record again and press "Check now" on the Domains screen.`,
    ],
    { href: link, label: 'Open the Domains screen' },
  );
}

/** Queues one mail to every user of the organisation who has an address and finished registering; answers how many. */
export async function mailOrganisation(
  env: Pick<Env, 'SEND_QUEUE' | 'PUBLIC_URL'>,
  db: Database,
  orgId: number,
  build: (org: { name: string; domainsUrl: string }) => Omit<SystemMail, 'to'>,
): Promise<number> {
  const [org] = await db.select({ name: organizations.name, domain: organizations.domain }).from(organizations).where(eq(organizations.id, orgId)).limit(1);
  if (!org) return 0;
  const people = await db
    .select({ email: users.email, username: users.username })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.registrationPending, false)));
  const content = build({ name: org.name, domainsUrl: orgUrl(env, org.domain, '/domains') });
  const addresses = [...new Set(people.map(mailAddressOf).filter((a): a is string => a !== null))];
  for (const to of addresses) await queueSystemMail(env, db, { ...content, to, orgId });
  return addresses.length;
}
