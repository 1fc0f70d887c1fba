import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { SocialProviderView } from '@shared/contracts/social';
import { SOCIAL_STATUS } from '@shared/contracts/social';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { confirmDelete } from '../../components/common/confirm';
import { LoadState } from '../../components/form/LoadState';
import { rememberOAuthState } from '../../lib/oauth-state';
import { translateApiError } from '../../lib/server-messages';
import { useAccountCalls } from './api';

/** Sends the browser to another site (the social provider's authorisation page). */
export function leaveTo(url: string): void {
  window.location.assign(url);
}

/** Linked and available social accounts, with link (via the provider) and unlink (after a confirmation). */
export function SocialAccountsSection({
  providers,
  error,
  loading,
  demo,
  onChanged,
}: {
  providers: SocialProviderView[];
  error: unknown;
  loading: boolean;
  demo: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const calls = useAccountCalls();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const link = async (provider: SocialProviderView) => {
    setBusy(provider.id);
    setActionError(null);
    try {
      const url = await calls.authorizeSocial(provider.id);
      // Only this tab may confirm this link when the provider sends the browser back (see SecurityNotice).
      rememberOAuthState(url);
      leaveTo(url);
    } catch (failure) {
      setActionError(translateApiError(t, failure));
      setBusy(null);
    }
  };

  const unlink = (provider: SocialProviderView) =>
    confirmDelete({
      title: t('me.security.unlinkTitle'),
      message: t('me.security.unlinkMessage', { provider: provider.name }),
      confirmLabel: t('me.security.unlink'),
      cancelLabel: t('common.cancel'),
      onConfirm: async () => {
        setBusy(provider.id);
        setActionError(null);
        try {
          await calls.unlinkSocial(provider.id);
          onChanged();
          navigate(`/me/security?status=${SOCIAL_STATUS.unlink}&provider=${encodeURIComponent(provider.id)}`);
        } catch (failure) {
          setActionError(translateApiError(t, failure));
        } finally {
          setBusy(null);
        }
      },
    });

  return (
    <Paper withBorder p="lg" data-testid="social-accounts">
      <Stack>
        <Title order={3}>{t('me.security.socialTitle')}</Title>
        {actionError && (
          <Alert color="red" data-testid="social-error">
            {actionError}
          </Alert>
        )}
        <LoadState error={error} loading={loading}>
          {() =>
            providers.length === 0 ? (
              <Text c="dimmed" data-testid="social-none">
                {t('me.security.noProviders')}
              </Text>
            ) : (
              <Stack gap="xs">
                {providers.map((provider) => (
                  <Group
                    key={provider.id}
                    justify="space-between"
                    data-testid="social-provider"
                    data-provider={provider.id}
                    data-linked={provider.linked ? 'true' : 'false'}
                  >
                    <Group gap="xs">
                      <Text fw={500}>{provider.name}</Text>
                      {provider.linked ? (
                        <Badge color="green" variant="light" data-testid="social-account">
                          {provider.account ?? t('me.security.linkedBadge')}
                        </Badge>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {t('me.security.notLinked')}
                        </Text>
                      )}
                    </Group>
                    {provider.linked ? (
                      <Button
                        variant="light"
                        color="red"
                        size="xs"
                        disabled={demo}
                        loading={busy === provider.id}
                        onClick={() => unlink(provider)}
                        data-testid="social-unlink"
                      >
                        {t('me.security.unlink')}
                      </Button>
                    ) : (
                      <Button
                        variant="light"
                        size="xs"
                        disabled={demo}
                        loading={busy === provider.id}
                        onClick={() => void link(provider)}
                        data-testid="social-link"
                      >
                        {t('me.security.link')}
                      </Button>
                    )}
                  </Group>
                ))}
              </Stack>
            )
          }
        </LoadState>
      </Stack>
    </Paper>
  );
}
