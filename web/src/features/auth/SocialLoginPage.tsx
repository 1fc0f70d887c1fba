import { Anchor, Card, Loader, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { useServices } from '../../app/services-context';

/** Social-login completion: takes the tokens from the callback query, loads the user, then goes to the root. */
export function SocialLoginPage() {
  const { t } = useTranslation();
  const { session } = useServices();
  const search = useSearch();
  const [, navigate] = useLocation();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const query = new URLSearchParams(search);
    const accessToken = query.get('access_token');
    const refreshToken = query.get('refresh_token');
    if (!accessToken || !refreshToken) {
      setFailed(true);
      return;
    }
    session.acceptTokens({
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: Number(query.get('expires_in') ?? 0),
      auth_type_id: Number(query.get('auth_type_id') ?? NaN),
    });
    void session.fetchUser().then((user) => {
      if (user) navigate('/', { replace: true });
      else setFailed(true);
    });
  }, [search, session, navigate]);

  return (
    <Card withBorder maw={440} mx="auto" mt="xl" data-testid="social-login">
      {failed ? (
        <>
          <Text mb="sm">{t('auth.socialFailed')}</Text>
          <Link href="/" asChild>
            <Anchor href="/">{t('common.backHome')}</Anchor>
          </Link>
        </>
      ) : (
        <Loader />
      )}
    </Card>
  );
}
