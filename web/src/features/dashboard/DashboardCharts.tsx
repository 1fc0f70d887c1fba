import { Badge, Card, Center, Group, SimpleGrid, Skeleton, Stack, Text, Tooltip, useComputedColorScheme } from '@mantine/core';
import type { Dashboard, DashboardDay } from '@shared/contracts/dashboard';
import { Line } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import { SERIES, weekChange } from './charts';

/** One chart: what it counts, its series over the week, and the figure that sums the week. */
interface ChartSpec {
  key: string;
  series: { labelKey: string; value: (d: DashboardDay) => number }[];
  week: number;
  previous: number;
  /** Megabytes (three significant digits); whole counts otherwise. */
  megabytes?: boolean;
  /** Not measured yet (data volume before the first hourly measurement). */
  pending?: boolean;
}

function level(key: 'data' | 'files', value: (d: DashboardDay) => number, days: DashboardDay[]): ChartSpec {
  return {
    key,
    series: [{ labelKey: 'dashboard.series.megabytes', value }],
    week: value(days[days.length - 1]),
    previous: value(days[days.length - 8]),
    megabytes: true,
  };
}

function specsOf(d: Dashboard): ChartSpec[] {
  const w = d.week;
  const p = d.previous_week;
  const days = d.days;
  return [
    {
      key: 'messages',
      series: [
        { labelKey: 'dashboard.series.email', value: (x) => x.emails_sent },
        { labelKey: 'dashboard.series.sms', value: (x) => x.sms_sent },
      ],
      week: w.emails_sent + w.sms_sent,
      previous: p.emails_sent + p.sms_sent,
    },
    {
      key: 'opens',
      series: [
        // Recipients who opened, as everywhere (a broadcast's "Opened"): not every load of the tracking image.
        { labelKey: 'dashboard.series.people', value: (x) => x.human_opened },
        { labelKey: 'dashboard.series.all', value: (x) => x.opened },
      ],
      week: w.human_opened,
      previous: p.human_opened,
    },
    {
      key: 'clicks',
      series: [
        { labelKey: 'dashboard.series.people', value: (x) => x.human_clicked },
        { labelKey: 'dashboard.series.all', value: (x) => x.clicked },
      ],
      week: w.human_clicked,
      previous: p.human_clicked,
    },
    {
      key: 'unsubscribes',
      series: [{ labelKey: 'dashboard.series.unsubscribes', value: (x) => x.unsubscribes }],
      week: w.unsubscribes,
      previous: p.unsubscribes,
    },
    {
      // What came back: hard bounces and spam reports (each suppressed its address). The figure adds both.
      key: 'bounces',
      series: [
        { labelKey: 'dashboard.series.bounces', value: (x) => x.bounces },
        { labelKey: 'dashboard.series.complaints', value: (x) => x.complaints },
      ],
      week: w.bounces + w.complaints,
      previous: p.bounces + p.complaints,
    },
    {
      key: 'contacts',
      series: [{ labelKey: 'dashboard.series.contacts', value: (x) => x.contacts_total }],
      week: days[days.length - 1].contacts_total,
      previous: days[days.length - 8].contacts_total,
    },
    { key: 'requests', series: [{ labelKey: 'dashboard.series.requests', value: (x) => x.requests }], week: w.requests, previous: p.requests },
    {
      key: 'traffic',
      series: [{ labelKey: 'dashboard.series.megabytes', value: (x) => x.request_bytes / 1e6 }],
      week: w.request_bytes / 1e6,
      previous: p.request_bytes / 1e6,
      megabytes: true,
    },
    // Volumes are levels, not sums: the figure is the latest day's, compared with a week before.
    { ...level('data', (x) => (x.data_bytes ?? 0) / 1e6, days), pending: d.data_bytes === null },
    level('files', (x) => x.file_bytes / 1e6, days),
  ];
}

function ChartCard({ spec, days }: { spec: ChartSpec; days: DashboardDay[] }) {
  const { t, i18n } = useTranslation();
  const dark = useComputedColorScheme('light') === 'dark';
  // Megabytes of a quiet week are small fractions: three significant digits keep them readable.
  const number = new Intl.NumberFormat(i18n.language, spec.megabytes ? { maximumSignificantDigits: 3 } : { maximumFractionDigits: 0 });
  const dayLabel = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', day: 'numeric', timeZone: 'UTC' });
  const week = days.slice(-7);
  const change = weekChange(spec.week, spec.previous);
  const ink = dark ? '#c9c9c9' : '#495057';
  const grid = dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.06)';
  return (
    <Card withBorder padding="md" data-testid={`dashboard-chart-${spec.key}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Tooltip label={t(`dashboard.charts.${spec.key}.hint`)} multiline w={260} withArrow>
          <Text fw={600} style={{ cursor: 'help' }}>
            {t(`dashboard.charts.${spec.key}.title`)}
          </Text>
        </Tooltip>
        <Stack gap={0} align="flex-end">
          <Text fw={700} size="xl" data-testid={`dashboard-week-${spec.key}`}>
            {spec.pending ? '–' : number.format(spec.week)}
            {spec.megabytes && !spec.pending ? ` ${t('dashboard.mb')}` : ''}
          </Text>
          {spec.pending ? (
            <Text size="xs" c="dimmed">
              {t('dashboard.notMeasured')}
            </Text>
          ) : change.kind === 'new' ? (
            <Text size="xs" c="dimmed">
              {t('dashboard.new')}
            </Text>
          ) : (
            <Badge
              size="sm"
              variant="light"
              color={change.value > 0 ? 'teal' : change.value < 0 ? 'orange' : 'gray'}
              title={t('dashboard.changeHint')}
              data-testid={`dashboard-change-${spec.key}`}
            >
              {change.value > 0 ? '+' : ''}
              {change.kind === 'percent'
                ? t('dashboard.change', { percent: number.format(change.value) })
                : t('dashboard.changeAbsolute', { count: number.format(change.value) })}
            </Badge>
          )}
        </Stack>
      </Group>
      {spec.pending ? (
        // Nothing measured yet: no chart of zeros beside "not yet measured".
        <Center h={160} mt={8} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 4 }} data-testid={`dashboard-pending-${spec.key}`}>
          <Text size="sm" c="dimmed">
            {t('dashboard.notMeasuredYet')}
          </Text>
        </Center>
      ) : (
        <div style={{ position: 'relative', height: 160, marginTop: 8 }}>
          <Line
            aria-label={t(`dashboard.charts.${spec.key}.title`)}
            role="img"
            data={{
              labels: week.map((d) => dayLabel.format(new Date(`${d.day}T00:00:00Z`))),
              datasets: spec.series.map((s, i) => ({
                label: t(s.labelKey),
                data: week.map(s.value),
                borderColor: SERIES[i % SERIES.length],
                backgroundColor: `${SERIES[i % SERIES.length]}33`,
                fill: spec.series.length === 1,
                tension: 0.3,
                pointRadius: 3,
              })),
            }}
            options={{
              maintainAspectRatio: false,
              animation: false,
              interaction: { mode: 'index', intersect: false },
              plugins: {
                legend: { display: spec.series.length > 1, labels: { color: ink, boxWidth: 12 } },
                tooltip: { callbacks: { label: (item) => `${item.dataset.label}: ${number.format(Number(item.raw))}` } },
              },
              scales: {
                x: { ticks: { color: ink }, grid: { color: grid } },
                y: {
                  beginAtZero: true,
                  ticks: { color: ink, precision: spec.megabytes ? undefined : 0, callback: (v) => number.format(Number(v)) },
                  grid: { color: grid },
                },
              },
            }}
          />
        </div>
      )}
    </Card>
  );
}

const CHART_COLUMNS = { base: 1, sm: 2, lg: 3 } as const;
/** How many charts the dashboard draws (specsOf). */
const CHART_COUNT = 9;

/**
 * The charts' place while the figures load: the same grid of cards at about their height, so what is below does not
 * jump down when the charts arrive (a layout shift of 0.6 before, bench:pages' dashboard).
 */
export function DashboardChartsPlaceholder() {
  return (
    <SimpleGrid cols={CHART_COLUMNS} data-testid="dashboard-loading">
      {Array.from({ length: CHART_COUNT }, (_, i) => (
        <Card key={i} withBorder padding="md">
          <Skeleton h={44} w="60%" />
          <Skeleton h={160} mt={8} />
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** The dashboard's charts for the last seven days, each with its weekly total and the change against the week before. */
export function DashboardCharts({ dashboard }: { dashboard: Dashboard }) {
  return (
    <SimpleGrid cols={CHART_COLUMNS} data-testid="dashboard-charts">
      {specsOf(dashboard).map((spec) => (
        <ChartCard key={spec.key} spec={spec} days={dashboard.days} />
      ))}
    </SimpleGrid>
  );
}

/** True for an organisation that has nothing to chart yet (no contacts, nothing sent, counted or asked this fortnight). */
export function isEmptyDashboard(d: Dashboard): boolean {
  const quiet = (f: Dashboard['week']) => Object.entries(f).every(([key, n]) => key === 'requests' || key === 'request_bytes' || n === 0);
  return d.contacts_total === 0 && quiet(d.week) && quiet(d.previous_week);
}
