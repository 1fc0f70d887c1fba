// What a domain's records and alignment depend on beyond its own row: the organisation's SMTP integrations (their
// hosts give the SPF mechanism, their return paths the envelope domain, their switch whether Relay signs) and its
// email senders. Read once per request or check, for every domain shown.
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { integrations, senders } from '../../db/schema';
import { domainsAlign } from '../../lib/dns/alignment';
import { spfMechanismForRelay } from '../../lib/dns/relay-spf';
import { bounceDomainOf } from '../bounce/address';
import { isSameOrUnder } from './name';
import { addressDomain } from './sender-state';

interface SmtpIntegration {
  id: number;
  server: string;
  returnPath: string | null;
  dkimSigning: boolean;
}

export interface DomainOrgContext {
  integrations: SmtpIntegration[];
  emailSenders: { value: string; integrationId: number }[];
}

export async function loadDomainContext(db: Database, orgId: number): Promise<DomainOrgContext> {
  const [smtp, emailSenders] = await Promise.all([
    db
      .select({ id: integrations.id, details: integrations.details, dkimSigning: integrations.dkimSigning })
      .from(integrations)
      .where(and(eq(integrations.orgId, orgId), eq(integrations.type, 'smtp'))),
    db
      .select({ value: senders.value, integrationId: senders.integrationId })
      .from(senders)
      .where(and(eq(senders.orgId, orgId), eq(senders.type, 'email'))),
  ]);
  return {
    integrations: smtp.map((i) => {
      const details = (i.details ?? {}) as { server?: string; return_path?: string | null };
      return { id: i.id, server: details.server ?? '', returnPath: details.return_path || null, dkimSigning: i.dkimSigning };
    }),
    emailSenders,
  };
}

/** The organisation's email senders on a domain (its own name or below it). */
export const sendersOn = (context: DomainOrgContext, domain: string) => context.emailSenders.filter((s) => isSameOrUnder(addressDomain(s.value), domain));

/** The integrations mail from the domain leaves through: those of its senders, else every SMTP integration. */
function integrationsFor(context: DomainOrgContext, domain: string): SmtpIntegration[] {
  const used = new Set(sendersOn(context, domain).map((s) => s.integrationId));
  const own = context.integrations.filter((i) => used.has(i.id));
  return own.length > 0 ? own : context.integrations;
}

/** The SPF mechanism the domain's relay needs: the first integration whose host is a known relay; null when none is. */
export function spfMechanismFor(context: DomainOrgContext, domain: string): string | null {
  for (const integration of integrationsFor(context, domain)) {
    const mechanism = spfMechanismForRelay(integration.server);
    if (mechanism) return mechanism;
  }
  return null;
}

/**
 * DMARC alignment of the domain's mail as Relay sends it. DKIM: Relay signs with d=<domain> once it is proved, unless
 * every integration it leaves through has "the relay signs". SPF: the envelope sender's domain (an integration's
 * return path, else the platform's bounce domain, else the sender's own address) against the domain, relaxed.
 */
export function alignmentOf(context: DomainOrgContext, env: { BOUNCE_DOMAIN?: string }, domain: string, verified: boolean) {
  const used = integrationsFor(context, domain);
  const signs = verified && (used.length === 0 || used.some((i) => i.dkimSigning));
  const bounce = bounceDomainOf(env);
  const envelopeDomains = used.length > 0 ? used.map((i) => (i.returnPath ? addressDomain(i.returnPath) : bounce)) : [bounce];
  const spfAligned = envelopeDomains.every((envelope) => envelope === null || domainsAlign(envelope, domain, 'relaxed'));
  return { dkim: signs ? ('aligned' as const) : ('not_signing' as const), spf: spfAligned ? ('aligned' as const) : ('not_aligned' as const) };
}
