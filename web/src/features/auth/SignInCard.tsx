import { Card, Tabs, Text, Title } from '@mantine/core';
import { IconKey, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PasswordSignInForm } from './PasswordSignInForm';

/** The guest home: sign-in with tabs Password and Social (social sign-in comes later). */
export function SignInCard() {
  const { t } = useTranslation();
  return (
    <Card withBorder shadow="sm" padding="lg" maw={440} mx="auto" mt="xl" data-testid="signin-card">
      <Title order={2} mb="md">
        {t('auth.signInTitle')}
      </Title>
      <Tabs defaultValue="password">
        <Tabs.List grow mb="md">
          <Tabs.Tab value="password" leftSection={<IconKey size={16} />} data-testid="signin-tab-password">
            {t('auth.tabPassword')}
          </Tabs.Tab>
          <Tabs.Tab value="social" leftSection={<IconUsers size={16} />} data-testid="signin-tab-social">
            {t('auth.tabSocial')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="password">
          <PasswordSignInForm />
        </Tabs.Panel>
        <Tabs.Panel value="social">
          <Text c="dimmed">{t('auth.socialComing')}</Text>
        </Tabs.Panel>
      </Tabs>
    </Card>
  );
}
