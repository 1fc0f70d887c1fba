import { Alert, Anchor, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { Broadcast } from '@shared/contracts/broadcast';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../app/route-table';
import { useRouteTable } from '../../app/services-context';
import { DateTime } from '../../components/common/DateTime';
import { LoadState } from '../../components/form/LoadState';
import { useBroadcastClicks, useBroadcastUnsubscribes } from './api';
import { EngagementTable } from './EngagementTable';
import { reasonText } from './labels';

/** The broadcast view's "engagement" tab: opens and clicks (people and all), clicks per link, unsubscribes. Live. */
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
          { labelKey: 'engagement.opens', people: e.human_opens, all: e.opens, testId: 'opens' },
          { labelKey: 'engagement.opensUnique', people: e.human_opens_unique, all: e.opens_unique, testId: 'opens-unique' },
          { labelKey: 'engagement.clicks', people: e.human_clicks, all: e.clicks, testId: 'clicks' },
          { labelKey: 'engagement.clicksUnique', people: e.human_clicks_unique, all: e.clicks_unique, testId: 'clicks-unique' },
        ]}
      />
      <LinkClicksTable broadcastId={b.id} version={e.clicks} />
      <UnsubscribesTable broadcastId={b.id} version={e.unsubscribes} />
    </Stack>
  );
}

function LinkClicksTable({ broadcastId, version }: { broadcastId: number; version: number }) {
  const { t } = useTranslation();
  const { data, error, isLoading } = useBroadcastClicks(broadcastId, version);
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        {t('engagement.links')}
      </Title>
      <LoadState error={error} loading={isLoading && !data}>
        {() =>
          data!.data.length === 0 ? (
            <Text c="dimmed">{t('engagement.noLinks')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={520}>
              <Table data-testid="broadcast-links">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('engagement.link')}</Table.Th>
                    <Table.Th ta="right">{t('engagement.clicksUnique')}</Table.Th>
                    <Table.Th ta="right">{t('engagement.clicks')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data!.data.map((link) => (
                    <Table.Tr key={link.link_index} data-testid="broadcast-link">
                      <Table.Td style={{ wordBreak: 'break-all' }}>{link.url}</Table.Td>
                      <Table.Td ta="right">
                        <b>{link.human_clicks_unique}</b> / {link.clicks_unique}
                      </Table.Td>
                      <Table.Td ta="right">
                        <b>{link.human_clicks}</b> / {link.clicks}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </LoadState>
    </Paper>
  );
}

function UnsubscribesTable({ broadcastId, version }: { broadcastId: number; version: number }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const { data, error, isLoading } = useBroadcastUnsubscribes(broadcastId, version);
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        {t('engagement.unsubscribes')} ({version.toLocaleString()})
      </Title>
      <LoadState error={error} loading={isLoading && !data}>
        {() =>
          data!.data.length === 0 ? (
            <Text c="dimmed">{t('engagement.noUnsubscribes')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table data-testid="broadcast-unsubscribes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('engagement.columns.contact')}</Table.Th>
                    <Table.Th>{t('engagement.columns.reason_given')}</Table.Th>
                    <Table.Th>{t('engagement.columns.comment')}</Table.Th>
                    <Table.Th>{t('engagement.columns.source')}</Table.Th>
                    <Table.Th>{t('engagement.columns.when')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data!.data.map((u) => {
                    const href = pathOf(table, 'contact_update', { id: u.contact_id });
                    return (
                      <Table.Tr key={`${u.contact_id}:${u.created_at}`} data-testid="broadcast-unsubscribe">
                        <Table.Td>
                          {href ? (
                            <Link href={href} asChild>
                              <Anchor href={href}>{u.contact_name ?? `#${u.contact_id}`}</Anchor>
                            </Link>
                          ) : (
                            (u.contact_name ?? `#${u.contact_id}`)
                          )}
                        </Table.Td>
                        <Table.Td>{reasonText(t, u.reason)}</Table.Td>
                        <Table.Td style={{ wordBreak: 'break-word' }}>{u.comment ?? '—'}</Table.Td>
                        <Table.Td>{u.source ? t(`engagement.sources.${u.source}`) : '—'}</Table.Td>
                        <Table.Td>
                          <DateTime value={u.created_at} />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </LoadState>
      {data && data.data.length < version && (
        <Text size="xs" c="dimmed" mt="xs">
          {t('engagement.unsubscribesShown', { count: data.data.length })}
        </Text>
      )}
    </Paper>
  );
}
