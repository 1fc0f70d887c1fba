import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { MESSAGES } from '@shared/messages';
import { orgDomainProblem } from '@shared/org-domain';
import { useAtomValue } from 'jotai';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { translateServerMessage } from '../../lib/server-messages';
import { guestInitAtom } from '../../lib/session-state';
import { redirectTo } from './redirect';

/** The address of an organisation's console on this platform: `${protocol}//${domain}.${host}`. */
export function organizationUrl(domain: string, location: { protocol: string; host: string } = window.location): string {
  return `${location.protocol}//${domain}.${location.host}`;
}

/** / on the bare platform host: what the product is, "Become a client" and "Go to your organisation". */
export function PlatformHomePage() {
  const { t } = useTranslation();
  const settings = useAtomValue(guestInitAtom)?.settings;
  const [domain, setDomain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const joinHref = settings?.['signup.active'] ? '/signup' : '/pre-registration';

  const go = (event: FormEvent) => {
    event.preventDefault();
    const label = domain.trim().toLowerCase();
    // The demo and other reserved names are real hosts too: only the form of the label is checked here.
    const found = orgDomainProblem(label);
    if (found && found !== MESSAGES.orgDomainReserved) {
      setProblem(found);
      return;
    }
    redirectTo(organizationUrl(label));
  };

  return (
    <Stack maw={880} mx="auto" mt="xl" gap="xl" data-testid="platform-home">
      <Stack gap="xs">
        <Title order={1}>{t('identity.platform.title')}</Title>
        <Text size="lg" c="dimmed">
          {t('identity.platform.tagline')}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {(['audience', 'channels', 'tracking'] as const).map((key) => (
          <Card key={key} withBorder padding="md">
            <Text fw={600}>{t(`identity.platform.features.${key}.title`)}</Text>
            <Text size="sm" c="dimmed">
              {t(`identity.platform.features.${key}.text`)}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {settings?.['signup.enabled'] && (
          <Card withBorder padding="lg" data-testid="platform-join">
            <Title order={3} mb="xs">
              {t('identity.platform.joinTitle')}
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              {settings['signup.active'] ? t('identity.platform.joinText') : t('server.registrationPaused')}
            </Text>
            <Link href={joinHref} asChild>
              <Button component="a" href={joinHref} data-testid="platform-become-client">
                {settings['signup.active'] ? t('identity.platform.becomeClient') : t('identity.platform.preRegister')}
              </Button>
            </Link>
          </Card>
        )}
        <Card withBorder padding="lg">
          <Title order={3} mb="xs">
            {t('identity.platform.goTitle')}
          </Title>
          <form onSubmit={go} noValidate>
            <Group align="flex-start" wrap="nowrap">
              <TextInput
                flex={1}
                aria-label={t('identity.platform.goLabel')}
                placeholder="my-org"
                autoCapitalize="off"
                spellCheck={false}
                data-testid="platform-org-domain"
                value={domain}
                error={problem ? translateServerMessage(t, problem) : undefined}
                rightSectionWidth={Math.min(220, window.location.host.length * 8 + 24)}
                rightSection={
                  <Text size="sm" c="dimmed">
                    .{window.location.host}
                  </Text>
                }
                onChange={(e) => {
                  setDomain(e.currentTarget.value);
                  setProblem(null);
                }}
              />
              <Button type="submit" data-testid="platform-org-go">
                {t('identity.platform.go')}
              </Button>
            </Group>
          </form>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
