import { Alert, Anchor, Stack, Table, Text } from '@mantine/core';
import type { Broadcast } from '@shared/contracts/broadcast';
import { TOO_SOON_MS } from '@shared/contracts/tracking';
import { useTranslation } from 'react-i18next';
import { formatNumber, useFormatNumber } from '../../lib/numbers';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { DateTime } from '../../components/common/DateTime';
import { useBroadcastClicks, useBroadcastUnsubscribes } from './api';
import { EngagementTable } from './EngagementTable';
import { reasonText } from './labels';
import { TableSection } from './TableSection';

/** The broadcast view's "engagement" tab: opens and clicks (people and all), bounces and spam reports, clicks per link, unsubscribes. Live. */
export function BroadcastEngagementTab({ broadcast: b }: { broadcast: Broadcast }) {
  const { t } = useTranslation();
  const e = b.engagement;
  const tracked = b.type === 'email' && (b.track_opens || b.track_clicks);
  return (
    <Stack data-testid="broadcast-engagement">
      {b.type === 'email' && !tracked && <Alert color="gray">{t('engagement.trackingOff')}</Alert>}
      <EngagementTable
        testId="broadcast-engagement-figures"
        rows={[
          // Opened and Clicked first: the one definition of an open the console uses everywhere; the hits after it.
          { labelKey: 'engagement.opensUnique', people: e.human_opens_unique, all: e.opens_unique, testId: 'opens-unique' },
          { labelKey: 'engagement.clicksUnique', people: e.human_clicks_unique, all: e.clicks_unique, testId: 'clicks-unique' },
          { labelKey: 'engagement.opens', people: e.human_opens, all: e.opens, testId: 'opens' },
          { labelKey: 'engagement.clicks', people: e.human_clicks, all: e.clicks, testId: 'clicks' },
        ]}
        legend={
          // Opened (people) above Open hits (people) looks like a miscount without the rule (README, "People and
          // machines"; TOO_SOON_MS): a person's click is an open; a load of the image
          // within 3 s of sending is a machine's.
          <Text size="xs" c="dimmed" mt={4} maw={560} data-testid="opens-legend">
            {t('engagement.opensLegend', { seconds: TOO_SOON_MS.open / 1000 })}
          </Text>
        }
      />
      {b.type === 'email' && <BouncesSection bounces={e.bounces} complaints={e.complaints} />}
      <LinkClicksTable broadcastId={b.id} version={e.clicks} />
      <UnsubscribesTable broadcastId={b.id} version={e.unsubscribes} />
    </Stack>
  );
}

/** What came back to the bounce addresses (or SendGrid's events): each hard bounce and spam report suppressed its address. */
function BouncesSection({ bounces, complaints }: { bounces: number; complaints: number }) {
  const { t } = useTranslation();
  const format = useFormatNumber();
  return (
    <div data-testid="broadcast-engagement-bounces">
      {/* The same shape as the opens and clicks above it. */}
      <Table withTableBorder maw={560}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th colSpan={2}>{t('engagement.bounces')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(
            [
              ['broadcasts.fields.bounces', bounces, 'bounces'],
              ['broadcasts.fields.complaints', complaints, 'complaints'],
            ] as const
          ).map(([labelKey, value, testId]) => (
            <Table.Tr key={testId}>
              <Table.Th fw={500}>{t(labelKey)}</Table.Th>
              <Table.Td ta="right" fw={700} data-testid={`engagement-${testId}`}>
                {format(value)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={4} maw={560}>
        {t('engagement.bouncesHint')}
      </Text>
    </div>
  );
}

function LinkClicksTable({ broadcastId, version }: { broadcastId: number; version: number }) {
  const { t } = useTranslation();
  const { data, error, isLoading } = useBroadcastClicks(broadcastId, version);
  const links = data?.data ?? [];
  return (
    <TableSection
      title={t('engagement.links')}
      state={{ error, loading: isLoading && !data }}
      empty={links.length === 0}
      emptyText={t('engagement.noLinks')}
      minWidth={520}
      testId="broadcast-links"
      footer={
        links.length > 0 && (
          <Text size="xs" c="dimmed" mt={4} data-testid="broadcast-links-legend">
            {t('engagement.linksLegend')}
          </Text>
        )
      }
      head={
        <>
          <Table.Th>{t('engagement.link')}</Table.Th>
          <Table.Th ta="right">{t('engagement.clicksUnique')}</Table.Th>
          <Table.Th ta="right">{t('engagement.clicks')}</Table.Th>
        </>
      }
      rows={() =>
        links.map((link) => (
          <Table.Tr key={link.link_index} data-testid="broadcast-link">
            <Table.Td style={{ wordBreak: 'break-all' }}>{link.url}</Table.Td>
            <Table.Td ta="right">
              <b>{link.human_clicks_unique}</b> / {link.clicks_unique}
            </Table.Td>
            <Table.Td ta="right">
              <b>{link.human_clicks}</b> / {link.clicks}
            </Table.Td>
          </Table.Tr>
        ))
      }
    />
  );
}

function UnsubscribesTable({ broadcastId, version }: { broadcastId: number; version: number }) {
  const { t, i18n } = useTranslation();
  const table = useRouteTable();
  const { data, error, isLoading } = useBroadcastUnsubscribes(broadcastId, version);
  const rows = data?.data ?? [];
  return (
    <TableSection
      title={`${t('engagement.unsubscribes')} (${formatNumber(version, i18n.language)})`}
      state={{ error, loading: isLoading && !data }}
      empty={rows.length === 0}
      emptyText={t('engagement.noUnsubscribes')}
      minWidth={760}
      testId="broadcast-unsubscribes"
      head={
        <>
          <Table.Th>{t('engagement.columns.contact')}</Table.Th>
          <Table.Th>{t('engagement.columns.category')}</Table.Th>
          <Table.Th>{t('engagement.columns.reason_given')}</Table.Th>
          <Table.Th>{t('engagement.columns.comment')}</Table.Th>
          <Table.Th>{t('engagement.columns.source')}</Table.Th>
          <Table.Th>{t('engagement.columns.when')}</Table.Th>
        </>
      }
      rows={() =>
        rows.map((u) => {
          const href = pathOf(table, 'contact_view', { id: u.contact_id });
          const name = u.contact_name ?? `#${u.contact_id}`;
          return (
            <Table.Tr key={`${u.contact_id}:${u.subscription_name}:${u.created_at}`} data-testid="broadcast-unsubscribe">
              <Table.Td>
                {href ? (
                  <Link href={href} asChild>
                    <Anchor href={href}>{name}</Anchor>
                  </Link>
                ) : (
                  name
                )}
              </Table.Td>
              <Table.Td>{u.subscription_name ?? '—'}</Table.Td>
              <Table.Td>{reasonText(t, u.reason)}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{u.comment ?? '—'}</Table.Td>
              <Table.Td>{u.source ? t(`engagement.sources.${u.source}`) : '—'}</Table.Td>
              <Table.Td>
                <DateTime value={u.created_at} />
              </Table.Td>
            </Table.Tr>
          );
        })
      }
      footer={
        data && rows.length < version ? (
          <Text size="xs" c="dimmed" mt="xs">
            {t('engagement.unsubscribesShown', { count: rows.length })}
          </Text>
        ) : null
      }
    />
  );
}
