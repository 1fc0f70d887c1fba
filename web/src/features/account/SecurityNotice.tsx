import { Alert, Group, Loader, Text } from '@mantine/core';
import { SOCIAL_STATUS } from '@shared/contracts/social';
import { MESSAGES } from '@shared/messages';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { ApiError } from '../../lib/api-error';
import { takeOAuthState } from '../../lib/oauth-state';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { useAccountCalls } from './api';

/** What the query string of /me/security says happened: a social link or unlink, and whether it failed. */
export interface SecurityStatus {
  action: 'link' | 'unlink';
  provider: string;
  error: string | null;
  /** The OAuth state of a link the provider sent back: still to be confirmed by this tab. */
  state: string | null;
}

/** Reads status (social-link or social-unlink), provider, error and state from a query string; null when there is no known status. */
export function parseSecurityStatus(search: string): SecurityStatus | null {
  const params = new URLSearchParams(search);
  const status = params.get('status');
  const action = status === SOCIAL_STATUS.link ? 'link' : status === SOCIAL_STATUS.unlink ? 'unlink' : null;
  const error = params.get('error')?.trim() || null;
  if (!action && !error) return null;
  return { action: action ?? 'link', provider: params.get('provider') ?? '', error, state: params.get('state') || null };
}

/** The address of a finished link's outcome: the notice reads it (no state left in the address bar). */
function linkOutcomePath(provider: string, error?: string): string {
  const query = new URLSearchParams({ status: SOCIAL_STATUS.link, provider });
  if (error) query.set('error', error);
  return `/me/security?${query}`;
}

/**
 * Finishes a link the provider sent back (?status=social-link&state=..): when the state is the one this tab
 * stored, posts it with the user's session and shows the outcome; a state this tab did not start is never posted
 * (link CSRF) and shows an error. `onLinked` refreshes the list after a link.
 */
export function useSocialLinkConfirmation(onLinked: () => void): void {
  const search = useSearch();
  const [, navigate] = useLocation();
  const calls = useAccountCalls();
  const { t } = useTranslation();
  const handled = useRef<string | null>(null);
  const status = parseSecurityStatus(search);
  const state = status?.action === 'link' ? status.state : null;

  useEffect(() => {
    if (!status || !state || handled.current === state) return;
    handled.current = state;
    const done = (error?: string) => navigate(linkOutcomePath(status.provider, error), { replace: true });
    const ours = takeOAuthState(state);
    if (status.error) return done(status.error);
    if (!ours) return done(MESSAGES.socialForeignState);
    calls.confirmSocialLink(status.provider, state).then(
      () => {
        onLinked();
        done();
      },
      // The server's text travels as is, so the notice shows it translated when it is a shared message.
      (failure: unknown) => done(failure instanceof ApiError && failure.status > 0 && failure.message ? failure.message : translateApiError(t, failure)),
    );
  }, [status, state, calls, navigate, onLinked, t]);
}

/** The success or error notice after the browser came back from a social link or unlink. */
export function SecurityNotice({ providerName }: { providerName: (id: string) => string }) {
  const { t } = useTranslation();
  const status = parseSecurityStatus(useSearch());
  if (!status) return null;
  const provider = status.provider ? providerName(status.provider) : '';
  if (status.error) {
    return (
      <Alert
        color="red"
        title={t(status.action === 'link' ? 'me.security.linkFailed' : 'me.security.unlinkFailed', { provider })}
        data-testid="security-notice"
        data-kind="error"
      >
        {translateServerMessage(t, status.error)}
      </Alert>
    );
  }
  if (status.state) {
    return (
      <Group data-testid="security-notice-pending">
        <Loader size="sm" />
        <Text size="sm">{provider}</Text>
      </Group>
    );
  }
  return (
    <Alert color="green" data-testid="security-notice" data-kind="success">
      {t(status.action === 'link' ? 'me.security.linked' : 'me.security.unlinked', { provider })}
    </Alert>
  );
}
