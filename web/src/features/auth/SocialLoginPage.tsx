import { Alert, Anchor, Card, Loader, Stack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { MESSAGES } from '@shared/messages';
import { useServices } from '../../lib/services-context';
import { takeOAuthState } from '../../lib/oauth-state';
import { useOneTimeQuery } from '../../lib/one-time-query';
import { translateServerMessage } from '../../lib/server-messages';

/**
 * Social-login completion: takes the tokens from the callback query only when its state is the one this tab
 * stored when it started the sign-in (else the session, someone else's, is ended at once and refused), rotates
 * the refresh token that travelled in the URL, loads the user, drops the query from the history and goes to the
 * root. ?error= is shown.
 */
export function SocialLoginPage() {
  const { t } = useTranslation();
  const { session, client } = useServices();
  const query = useOneTimeQuery();
  const [, navigate] = useLocation();
  const started = useRef(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const error = query.get('error');
    const ours = takeOAuthState(query.get('state'));
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
    if (!ours) {
      // Not started in this tab (login CSRF): never keep that session; end it with its own token.
      void client
        .post('/internal-auth/logout', undefined, { guest: true, noLog: true, headers: { Authorization: `Bearer ${accessToken}` } })
        .catch(() => undefined);
      setFailure(translateServerMessage(t, MESSAGES.socialForeignState));
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
  }, [query, session, client, navigate, t]);

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
