import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { SignupView } from '@shared/contracts/signup';
import type { ItemBody } from '@shared/errors';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Link, useLocation } from 'wouter';
import type { PageProps } from '../../lib/route-table';
import { useServices } from '../../lib/services-context';
import { translateApiError } from '../../lib/server-messages';
import { formatCents } from './money';

/** /signup/checkout/:id: the built-in test payment page (no card, no money) used when Stripe is not configured. */
export function TestCheckoutPage({ params }: PageProps) {
  const { t, i18n } = useTranslation();
  const { client } = useServices();
  const [, navigate] = useLocation();
  const id = params.id ?? '';
  const path = `/signup/${encodeURIComponent(id)}`;
  const { data, error } = useSWR(['signup-checkout', id], () => client.get<ItemBody<SignupView>>(path, undefined, { guest: true }));
  const [paying, setPaying] = useState(false);
  const [payError, setPayError] = useState<string | null>(null);
  const signup = data?.data;
  const doneHref = `/signup/done?id=${encodeURIComponent(id)}`;

  const pay = async () => {
    setPaying(true);
    setPayError(null);
    try {
      await client.post<ItemBody<SignupView>>(`${path}/test-payment`, {}, { guest: true });
      navigate(doneHref);
    } catch (failure) {
      setPaying(false);
      setPayError(translateApiError(t, failure));
    }
  };

  return (
    <Card withBorder shadow="sm" padding="lg" maw={480} mx="auto" mt="xl" data-testid="test-checkout">
      <Group justify="space-between" mb="sm">
        <Title order={2}>{t('identity.checkout.title')}</Title>
        <Badge color="orange" data-testid="test-checkout-badge">
          {t('identity.checkout.badge')}
        </Badge>
      </Group>
      <Alert color="orange" mb="md">
        {t('identity.checkout.notice')}
      </Alert>
      {error ? (
        <Alert color="red" data-testid="test-checkout-error">
          {translateApiError(t, error)}
        </Alert>
      ) : !signup ? (
        <Loader />
      ) : (
        <Stack>
          <Text data-testid="test-checkout-email">{t('identity.checkout.for', { email: signup.email })}</Text>
          <Text fw={600} size="lg" data-testid="test-checkout-amount">
            {t('identity.signup.amountDue', { amount: formatCents(signup.amount, signup.currency, i18n.language) })}
          </Text>
          {payError && (
            <Alert color="red" data-testid="test-checkout-pay-error">
              {payError}
            </Alert>
          )}
          {signup.status === 'pending' ? (
            <Button onClick={() => void pay()} loading={paying} data-testid="test-checkout-pay">
              {t('identity.signup.payAmount', { amount: formatCents(signup.amount, signup.currency, i18n.language) })}
            </Button>
          ) : signup.status === 'failed' ? (
            <Alert color="red" data-testid="test-checkout-failed">
              {t('identity.done.failed', { domain: signup.domain })}
            </Alert>
          ) : (
            <>
              <Alert color="green" data-testid="test-checkout-paid">
                {t('identity.checkout.alreadyPaid')}
              </Alert>
              <Link href={doneHref} asChild>
                <Anchor href={doneHref}>{t('identity.checkout.continue')}</Anchor>
              </Link>
            </>
          )}
        </Stack>
      )}
    </Card>
  );
}
