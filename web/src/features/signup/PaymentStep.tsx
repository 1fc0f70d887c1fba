import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { guestInitAtom } from '../../lib/session-state';
import { formatCents, signupPrice } from './money';
import type { SignupValues } from './signup-form';

/** Sign-up step 3: a summary and the amount due; Pay creates the sign-up and opens the checkout. */
export function PaymentStep({ values, paying, onBack, onPay }: { values: SignupValues; paying: boolean; onBack(): void; onPay(): void }) {
  const { t, i18n } = useTranslation();
  const price = signupPrice(useAtomValue(guestInitAtom));
  const amount = price ? formatCents(price.amount, price.currency, i18n.language) : null;
  return (
    <Stack mt="md" data-testid="signup-step-payment">
      <Paper withBorder p="md">
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t('identity.signup.summary', { email: values.email.trim(), domain: `${values.domain.trim().toLowerCase()}.${window.location.host}` })}
          </Text>
          {amount ? (
            <Text fw={600} size="lg" data-testid="signup-amount">
              {t('identity.signup.amountDue', { amount })}
            </Text>
          ) : (
            <Text>{t('identity.signup.amountOnCheckout')}</Text>
          )}
          <Text size="sm" c="dimmed">
            {t('identity.signup.paymentHint')}
          </Text>
        </Stack>
      </Paper>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack} disabled={paying} data-testid="signup-back">
          {t('identity.signup.back')}
        </Button>
        <Button onClick={onPay} loading={paying} data-testid="signup-pay">
          {amount ? t('identity.signup.payAmount', { amount }) : t('identity.signup.pay')}
        </Button>
      </Group>
    </Stack>
  );
}
