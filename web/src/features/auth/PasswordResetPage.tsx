import { Card, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';

/** /password-reset: reads the code parameter; the reset form itself arrives with a later issue. */
export function PasswordResetPage() {
  const { t } = useTranslation();
  const code = new URLSearchParams(useSearch()).get('code');
  return (
    <Card withBorder maw={440} mx="auto" mt="xl" data-testid="password-reset">
      <Title order={2} mb="sm">
        {t('auth.resetTitle')}
      </Title>
      <Text c="dimmed">{code ? t('auth.resetComing') : t('auth.resetNoCode')}</Text>
    </Card>
  );
}
