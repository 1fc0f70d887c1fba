import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';
import type { Env } from '../../env';
import type { EndpointDisabledReason } from '../../shared/contracts/webhook';
import { mailOrganisation } from '../domain/mails';
import { mirrorEndpoint } from './mirror';

// The platform turning an endpoint off: the receiver said 410 Gone, or every attempt failed for FAILING_DISABLE_MS.
// D1 says so (enabled off, the reason and when), the ledgers' mirrors pause its pending deliveries (kept
// PAUSED_KEEP_MS, replayable), and for a failing one every user of the organisation gets a mail.

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

function failingMail(url: string, orgName: string, link: string) {
  const paragraphs = [
    `Every delivery to the webhook endpoint ${url} of ${orgName} has failed for more than a day, so it has been turned off.`,
    'Its events since then are kept for 7 days. Fix the receiver, turn the endpoint on again on the Webhooks screen, and they are delivered.',
  ];
  return {
    subject: `Webhook endpoint turned off: ${url}`,
    text: `${paragraphs.join('\n\n')}\n\n${link}\n`,
    html: `<!doctype html>\n<html><body style="font-family: sans-serif">\n${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}\n<p><a href="${escapeHtml(link)}">Open the Webhooks screen</a></p>\n</body></html>`,
  };
}

/** Turns the endpoint off for `reason` (once: a second call changes nothing); answers whether this call did it. */
export async function disableEndpoint(
  env: Env,
  db: Database,
  orgId: number,
  endpoint: { id: number; url: string },
  reason: EndpointDisabledReason,
): Promise<boolean> {
  const now = new Date().toISOString();
  const changed = await db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, disabledAt: now, updatedAt: now })
    .where(
      and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.enabled, true), isNull(webhookEndpoints.disabledReason)),
    )
    .returning({ eventTypes: webhookEndpoints.eventTypes, batch: webhookEndpoints.batch, since: webhookEndpoints.createdAt });
  const row = changed[0];
  if (!row) return false;
  await mirrorEndpoint(env, db, orgId, { id: endpoint.id, eventTypes: row.eventTypes, enabled: false, batch: row.batch, since: row.since });
  if (reason === 'failing') {
    await mailOrganisation(env, db, orgId, (org) => failingMail(endpoint.url, org.name, org.domainsUrl.replace(/\/domains$/, '/webhooks')));
  }
  return true;
}
