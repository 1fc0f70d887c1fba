import type { integrations } from '../../db/schema';
import type { Env } from '../../env';
import { decryptSecret, encryptSecret } from '../../lib/crypto/secret-box';
import type { Integration, IntegrationSyncResult, IntegrationType, SmtpDetails, TwilioDetails } from '../../shared/contracts/integration';
import { sendGridEventsUrl } from '../bounce/sendgrid-events';
import { twilioHookUrl } from '../sms-hooks/urls';
import type { ProviderAccount } from './providers';

// How an integration is stored: `details` JSON (connection settings and the last sync result, never secrets)
// and `secret`, the AES-GCM ciphertext of { password } (smtp) or { token } (twilio).

export type IntegrationRow = typeof integrations.$inferSelect;
export type StoredDetails = Partial<SmtpDetails & TwilioDetails> & { last_sync?: IntegrationSyncResult };

/** Encrypts an integration's secret for storage. */
export function sealSecret(env: Pick<Env, 'SECRETS_KEY'>, type: IntegrationType, secret: string): Promise<string> {
  return encryptSecret(env.SECRETS_KEY, JSON.stringify(type === 'smtp' ? { password: secret } : { token: secret }));
}

/** The integration with its decrypted secret, for the provider code; throws when the secret cannot be read. */
export async function providerAccount(env: Pick<Env, 'SECRETS_KEY'>, row: IntegrationRow): Promise<ProviderAccount> {
  const secret = JSON.parse(await decryptSecret(env.SECRETS_KEY, row.secret)) as { password?: string; token?: string };
  const details = row.details as StoredDetails;
  if (row.type === 'smtp') {
    return { type: 'smtp', integrationId: row.id, details: smtpDetails(details), password: secret.password ?? '' };
  }
  return { type: 'twilio', integrationId: row.id, details: { sid: details.sid ?? '' }, token: secret.token ?? '' };
}

function smtpDetails(details: StoredDetails): SmtpDetails {
  return {
    server: details.server ?? '',
    port: details.port ?? 0,
    ssl: details.ssl ?? false,
    tls: details.tls ?? false,
    domain: details.domain ?? null,
    return_path: details.return_path ?? null,
    sendgrid_verification_key: details.sendgrid_verification_key ?? null,
    user: details.user ?? '',
  };
}

/** The API shape of an integration: connection details without any secret. */
export function presentIntegration(env: { PUBLIC_URL: string }, row: IntegrationRow): Integration {
  const details = row.details as StoredDetails;
  return {
    id: row.id,
    name: row.name,
    type: row.type as IntegrationType,
    status: row.status as Integration['status'],
    note: row.note,
    should_merge: row.shouldMerge,
    priority: row.priority,
    max_rate: row.maxRate,
    dkim_signing: row.dkimSigning,
    details: row.type === 'smtp' ? smtpDetails(details) : { sid: details.sid ?? '' },
    webhook_url: row.type === 'smtp' ? sendGridEventsUrl(env, row.id) : twilioHookUrl(env, row.id, 'inbound'),
    last_sync: details.last_sync ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
