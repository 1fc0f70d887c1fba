import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { DomainRow } from '@shared/contracts/domain';
import { useTranslation } from 'react-i18next';

const COLORS = { aligned: 'green', not_aligned: 'red', not_signing: 'orange' } as const;

/** DMARC alignment of mail from this domain as Relay sends it: DKIM, SPF, and the DMARC policy that applies. */
export function DomainAlignment({ alignment }: { alignment: DomainRow['alignment'] }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" data-testid="domain-alignment">
      <Stack gap="sm">
        <Title order={4}>{t('domains.alignment.title')}</Title>
        <Text size="xs" c="dimmed">
          {t('domains.alignment.hint')}
        </Text>
        {alignment ? (
          <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
            <Item label={t('domains.alignment.dkim')} testId="alignment-dkim">
              <Badge variant="light" color={COLORS[alignment.dkim]} data-state={alignment.dkim}>
                {t(`domains.alignment.states.${alignment.dkim}`)}
              </Badge>
            </Item>
            <Item label={t('domains.alignment.spf')} testId="alignment-spf">
              <Badge variant="light" color={COLORS[alignment.spf]} data-state={alignment.spf}>
                {t(`domains.alignment.states.${alignment.spf}`)}
              </Badge>
            </Item>
            <Item label={t('domains.alignment.policy')} testId="alignment-policy">
              {alignment.dmarc_policy ? (
                <Badge variant="outline" color="gray" tt="none">{`p=${alignment.dmarc_policy}`}</Badge>
              ) : (
                <Text size="sm" c="orange.8">
                  {t('domains.alignment.noPolicy')}
                </Text>
              )}
            </Item>
          </SimpleGrid>
        ) : (
          <Text size="sm" c="dimmed" data-testid="alignment-unknown">
            {t('domains.alignment.unknown')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function Item({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <Group gap="xs" data-testid={testId}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      {children}
    </Group>
  );
}
