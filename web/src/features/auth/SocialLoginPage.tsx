import { Alert, Anchor, Card, Loader, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { useServices } from '../../app/services-context';
import { translateServerMessage } from '../../lib/server-messages';

/**
 * Social-login completion: takes the tokens from the callback query, rotates the refresh token that travelled
 * in the URL at once, loads the user, drops the query from the history and goes to the root. ?error= is shown.
 */
export function SocialLoginPage() {
  const { t } = useTranslation();
  const { session } = useServices();
  const search = useSearch();
  const [, navigate] = useLocation();
  const started = useRef(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const query = new URLSearchParams(search);
    // Tokens must not stay in the address bar or the history.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    const error = query.get('error');
    if (error) {
      setFailure(translateServerMessage(t, error));
      return;
    }
    const accessToken = query.get('access_token');
    const refreshToken = query.get('refresh_token');
    if (!accessToken || !refreshToken) {
      setFailure(t('auth.socialFailed'));
      return;
    }
    session.acceptTokens({
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: Number(query.get('expires_in') ?? 0),
      auth_type_id: Number(query.get('auth_type_id') ?? NaN),
    });
    void (async () => {
      const rotated = await session.refresh({ onFailure: 'clear' });
      const user = rotated ? await session.fetchUser() : null;
      if (user) navigate('/', { replace: true });
      else {
        session.clear();
        setFailure(t('auth.socialFailed'));
      }
    })();
  }, [search, session, navigate, t]);

  return (
    <Card withBorder maw={440} mx="auto" mt="xl" data-testid="social-login">
      {failure ? (
        <Stack>
          <Alert color="red" data-testid="social-login-error">
            {failure}
          </Alert>
          <Link href="/" asChild>
            <Anchor href="/">{t('common.backHome')}</Anchor>
          </Link>
        </Stack>
      ) : (
        <Loader />
      )}
    </Card>
  );
}
