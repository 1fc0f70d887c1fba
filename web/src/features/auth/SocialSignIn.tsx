import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconBrandGithub, IconBrandGoogle, IconUsers } from '@tabler/icons-react';
import type { ItemBody } from '@shared/errors';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { rememberOAuthState } from '../../lib/oauth-state';
import { translateApiError } from '../../lib/server-messages';
import { guestInitAtom } from '../../lib/session-state';
import { redirectTo } from '../signup/redirect';

const ICONS: Record<string, typeof IconUsers> = { google: IconBrandGoogle, github: IconBrandGithub };

/** The sign-in card's Social tab: one button per configured provider; a click asks for the provider URL and goes there. */
export function SocialSignIn() {
  const { t } = useTranslation();
  const { client } = useServices();
  const providers = useAtomValue(guestInitAtom)?.social_providers ?? [];
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const start = async (provider: string) => {
    setBusy(provider);
    setError(null);
    try {
      const body = await client.post<ItemBody<{ url: string }>>(`/social/${encodeURIComponent(provider)}/authorize`, { action: 'login' }, { guest: true });
      // Only this tab may complete this sign-in: the social-login page checks the state against it.
      rememberOAuthState(body.data.url);
      redirectTo(body.data.url);
    } catch (failure) {
      setBusy(null);
      setError(translateApiError(t, failure));
    }
  };

  if (providers.length === 0) {
    return (
      <Text c="dimmed" data-testid="signin-social-none">
        {t('identity.social.none')}
      </Text>
    );
  }
  return (
    <Stack>
      {error && (
        <Alert color="red" data-testid="signin-social-error">
          {error}
        </Alert>
      )}
      {providers.map((provider) => {
        const Icon = ICONS[provider.id] ?? IconUsers;
        return (
          <Button
            key={provider.id}
            variant="default"
            leftSection={<Icon size={18} />}
            loading={busy === provider.id}
            disabled={busy !== null && busy !== provider.id}
            data-testid={`social-login-${provider.id}`}
            onClick={() => void start(provider.id)}
          >
            {t('identity.social.continueWith', { name: provider.name })}
          </Button>
        );
      })}
    </Stack>
  );
}
