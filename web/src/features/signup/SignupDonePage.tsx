import { Alert, Anchor, Card, Group, Loader, Text, Title } from '@mantine/core';
import type { SignupView } from '@shared/contracts/signup';
import type { ItemBody } from '@shared/errors';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Link, useSearch } from 'wouter';
import type { PageProps } from '../../lib/route-table';
import { useServices } from '../../lib/services-context';
import { translateApiError } from '../../lib/server-messages';

/** How often /signup/done asks whether the payment has arrived (Stripe's webhook comes a moment after the redirect). */
export const SIGNUP_POLL_MS = 2000;

/** /signup/done?id=: waits until the sign-up is paid, then says where the completion link was emailed. */
export function SignupDonePage({ pollMs = SIGNUP_POLL_MS }: Partial<PageProps> & { pollMs?: number }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const id = new URLSearchParams(useSearch()).get('id') ?? '';
  const { data, error } = useSWR(
    id ? ['signup-done', id] : null,
    () => client.get<ItemBody<SignupView>>(`/signup/${encodeURIComponent(id)}`, undefined, { guest: true }),
    {
      refreshInterval: (latest) => (latest && latest.data.status !== 'pending' ? 0 : pollMs),
    },
  );
  const signup = data?.data;
  const paid = signup && signup.status !== 'pending';

  return (
    <Card withBorder shadow="sm" padding="lg" maw={520} mx="auto" mt="xl" data-testid="signup-done">
      <Title order={2} mb="md">
        {t('identity.done.title')}
      </Title>
      {!id ? (
        <Alert color="red" data-testid="signup-done-error">
          {t('server.notFound')}
        </Alert>
      ) : error && !signup ? (
        <Alert color="red" data-testid="signup-done-error">
          {translateApiError(t, error)}
        </Alert>
      ) : signup?.status === 'failed' ? (
        <Alert color="red" data-testid="signup-done-failed">
          {t('identity.done.failed', { domain: signup.domain })}
        </Alert>
      ) : paid ? (
        <Alert color="green" data-testid="signup-done-paid">
          {t('identity.done.paid', { email: signup.email })}
        </Alert>
      ) : (
        <Group data-testid="signup-done-waiting">
          <Loader size="sm" />
          <Text>{t('identity.done.waiting')}</Text>
        </Group>
      )}
      <Link href="/" asChild>
        <Anchor href="/" mt="md" display="block">
          {t('common.backHome')}
        </Anchor>
      </Link>
    </Card>
  );
}
