import { Alert, Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { CurrentUser } from '@shared/contracts/auth';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRouteTable } from '../../lib/services-context';
import { LoadState } from '../../components/form/LoadState';
import { visibleMainNav } from '../../components/layout/navigation';
import { useDashboard } from '../dashboard/api';
import { DashboardCharts, DashboardChartsPlaceholder, isEmptyDashboard } from '../dashboard/DashboardCharts';

/** The signed-in home: a welcome, the week's charts (moving while a broadcast sends), shortcuts to the sections. */
export function Dashboard({ user }: { user: CurrentUser }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const sections = visibleMainNav(table).filter((item) => item.key !== 'home');
  const { data, error, isLoading } = useDashboard();
  return (
    <Stack data-testid="dashboard">
      <Title order={2}>{t('home.welcome', { name: user.name || user.username })}</Title>
      <Text c="dimmed">{t('home.organization', { name: user.organization.name })}</Text>
      <LoadState error={error} loading={isLoading && !data} placeholder={<DashboardChartsPlaceholder />}>
        {() =>
          isEmptyDashboard(data!.data) ? (
            <Alert color="blue" title={t('dashboard.emptyTitle')} data-testid="dashboard-empty">
              {t('dashboard.emptyText')}
            </Alert>
          ) : (
            <DashboardCharts dashboard={data!.data} />
          )
        }
      </LoadState>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {sections.map((item) => (
          <Card key={item.key} withBorder padding="lg">
            <Text fw={600}>{t(item.labelKey)}</Text>
            <Text size="sm" c="dimmed" mb="sm">
              {t(`home.sections.${item.key}`)}
            </Text>
            <Link href={item.href} asChild>
              <Anchor href={item.href}>{t('home.open')}</Anchor>
            </Link>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
