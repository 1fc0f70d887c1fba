import { Alert } from '@mantine/core';
import { SOCIAL_STATUS } from '@shared/contracts/social';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { useServerText } from './messages';

/** What the query string of /me/security says happened: a social link or unlink, and whether it failed. */
export interface SecurityStatus {
  action: 'link' | 'unlink';
  provider: string;
  error: string | null;
}

/** Reads status (social-link or social-unlink), provider and error from a query string; null when there is no known status. */
export function parseSecurityStatus(search: string): SecurityStatus | null {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const action = status === SOCIAL_STATUS.link ? 'link' : status === SOCIAL_STATUS.unlink ? 'unlink' : null;
  const error = params.get('error')?.trim() || null;
  if (!action && !error) return null;
  return { action: action ?? 'link', provider: params.get('provider') ?? '', error };
}

/** The success or error notice after the browser came back from a social link or unlink. */
export function SecurityNotice({ providerName }: { providerName: (id: string) => string }) {
  const { t } = useTranslation();
  const text = useServerText();
  const status = parseSecurityStatus(useSearch());
  if (!status) return null;
  const provider = status.provider ? providerName(status.provider) : '';
  if (status.error) {
    return (
      <Alert color="red" title={t(status.action === 'link' ? 'me.security.linkFailed' : 'me.security.unlinkFailed', { provider })} data-testid="security-notice" data-kind="error">
        {text.message(status.error)}
      </Alert>
    );
  }
  return (
    <Alert color="green" data-testid="security-notice" data-kind="success">
      {t(status.action === 'link' ? 'me.security.linked' : 'me.security.unlinked', { provider })}
    </Alert>
  );
}
