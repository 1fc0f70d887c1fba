import { Anchor, Card, Group, Tabs, Title } from '@mantine/core';
import { IconKey, IconUsers } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { guestInitAtom } from '../../lib/session-state';
import { DemoNotice } from '../demo/DemoNotice';
import { PasswordSignInForm } from './PasswordSignInForm';
import { SocialSignIn } from './SocialSignIn';

/** The guest home: sign-in with tabs Password and Social, the demo notice, and "Become a client" when sign-up is on. */
export function SignInCard() {
  const { t } = useTranslation();
  const settings = useAtomValue(guestInitAtom)?.settings;
  const applicationUrl = settings?.['signup.enabled'] ? settings['signup.applicationUrl'] : null;
  return (
    <Card withBorder shadow="sm" padding="lg" maw={440} mx="auto" mt="xl" data-testid="signin-card">
      <Title order={2} mb="md">
        {t('auth.signInTitle')}
      </Title>
      {settings?.demo && <DemoNotice />}
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
          <SocialSignIn />
        </Tabs.Panel>
      </Tabs>
      {applicationUrl && (
        <Group justify="center" mt="md">
          <Anchor href={applicationUrl} size="sm" data-testid="signin-become-client">
            {t('identity.platform.becomeClient')}
          </Anchor>
        </Group>
      )}
    </Card>
  );
}
