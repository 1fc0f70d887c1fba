import { Alert, Anchor, Card, Loader, Stack, Text } from '@mantine/core';
import type { TokenResponse } from '@shared/contracts/auth';
import { MESSAGES } from '@shared/messages';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useServices } from '../../lib/services-context';
import { useOneTimeQuery } from '../../lib/one-time-query';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';

export const SIGN_COMPLETE_PATH = '/internal-user/sign-complete';

/** /sign-complete?code=: finishes a paid sign-up on the new organisation's host, signs the user in and goes home. */
export function SignCompletePage() {
  const { t } = useTranslation();
  const { client, session } = useServices();
  const [, navigate] = useLocation();
  const query = useOneTimeQuery();
  const started = useRef(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = query.get('code')?.trim();
    if (!code) {
      setError(translateServerMessage(t, MESSAGES.signCompleteInvalid));
      return;
    }
    void (async () => {
      try {
        const body = await client.post<TokenResponse | { data: TokenResponse }>(SIGN_COMPLETE_PATH, { code }, { guest: true });
        session.acceptTokens('data' in body ? body.data : body);
        const user = await session.fetchUser();
        if (!user) {
          session.clear();
          throw new Error('user could not be loaded');
        }
        navigate('/', { replace: true });
      } catch (failure) {
        setError(translateApiError(t, failure));
      }
    })();
  }, [client, navigate, query, session, t]);

  return (
    <Card withBorder maw={440} mx="auto" mt="xl" data-testid="sign-complete">
      {error ? (
        <Stack>
          <Alert color="red" data-testid="sign-complete-error">
            {error}
          </Alert>
          <Link href="/" asChild>
            <Anchor href="/">{t('common.backHome')}</Anchor>
          </Link>
        </Stack>
      ) : (
        <Stack align="center">
          <Loader />
          <Text c="dimmed">{t('identity.signComplete.working')}</Text>
        </Stack>
      )}
    </Card>
  );
}
