import { Alert, Paper, Stack, Table, Title } from '@mantine/core';
import type { Message } from '@shared/contracts/message';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import { LoadState } from '../../components/form/LoadState';
import { useMessageEngagement } from './api';
import { EngagementTable } from './EngagementTable';
import { DeliveryBadge, HitClassBadge, reasonText } from './labels';
import { TableSection } from './TableSection';

/** The message view's "engagement" tab: opens and clicks (people and all), links clicked, hits, the unsubscribe. */
export function MessageEngagementTab({ message: m }: { message: Message }) {
  const { t } = useTranslation();
  const { data, error, isLoading } = useMessageEngagement(m.id);
  return (
    <Stack data-testid="message-engagement">
      {m.type === 'sms' ? (
        <Paper withBorder p="md">
          <Title order={4} mb="sm">
            {t('engagement.delivery')}
          </Title>
          <DeliveryBadge status={m.delivery_status} errorCode={m.delivery_error_code} />
        </Paper>
      ) : (
        <EngagementTable
          testId="message-engagement-figures"
          rows={[
            { labelKey: 'engagement.opens', people: m.human_opens, all: m.opens_total, testId: 'opens' },
            { labelKey: 'engagement.clicks', people: m.human_clicks, all: m.clicks_total, testId: 'clicks' },
          ]}
        />
      )}
      <LoadState error={error} loading={isLoading}>
        {() => {
          const e = data!.data;
          return (
            <>
              {e.unsubscribe && (
                <Alert color="orange" data-testid="message-unsubscribe" title={t('engagement.unsubscribedHere')}>
                  {e.unsubscribe.subscription_name ?? '—'} · {reasonText(t, e.unsubscribe.reason)}
                  {e.unsubscribe.comment ? ` · “${e.unsubscribe.comment}”` : ''} · <DateTime value={e.unsubscribe.created_at} />
                </Alert>
              )}
              {m.type === 'email' && (
                <TableSection
                  title={t('engagement.links')}
                  empty={e.links.length === 0}
                  emptyText={t('engagement.noLinks')}
                  minWidth={480}
                  testId="message-links"
                  head={
                    <>
                      <Table.Th>{t('engagement.link')}</Table.Th>
                      <Table.Th ta="right">{t('engagement.clicks')}</Table.Th>
                      <Table.Th>{t('engagement.columns.when')}</Table.Th>
                    </>
                  }
                  rows={() =>
                    e.links.map((link) => (
                      <Table.Tr key={link.link_index}>
                        <Table.Td style={{ wordBreak: 'break-all' }}>{link.url}</Table.Td>
                        <Table.Td ta="right">
                          <b>{link.human_clicks}</b> / {link.clicks}
                        </Table.Td>
                        <Table.Td>
                          <DateTime value={link.first_clicked_at} />
                        </Table.Td>
                      </Table.Tr>
                    ))
                  }
                />
              )}
              {m.type === 'email' && (
                <TableSection
                  title={t('engagement.hits')}
                  empty={e.hits.length === 0}
                  emptyText={t('engagement.noHits')}
                  minWidth={640}
                  testId="message-hits"
                  head={
                    <>
                      <Table.Th>{t('engagement.columns.when')}</Table.Th>
                      <Table.Th>{t('engagement.columns.kind')}</Table.Th>
                      <Table.Th>{t('engagement.columns.class')}</Table.Th>
                      <Table.Th>{t('engagement.columns.reason')}</Table.Th>
                      <Table.Th>{t('engagement.columns.network')}</Table.Th>
                    </>
                  }
                  rows={() =>
                    e.hits.map((hit, i) => (
                      <Table.Tr key={`${hit.at}:${i}`} data-testid="message-hit">
                        <Table.Td>
                          <DateTime value={hit.at} />
                        </Table.Td>
                        <Table.Td>{t(`engagement.hitKind.${hit.kind}`)}</Table.Td>
                        <Table.Td>
                          <HitClassBadge hitClass={hit.class} reason={hit.reason} />
                        </Table.Td>
                        <Table.Td>{t(`engagement.reasons.${hit.reason}`)}</Table.Td>
                        <Table.Td>{hit.as_organization || '—'}</Table.Td>
                      </Table.Tr>
                    ))
                  }
                />
              )}
            </>
          );
        }}
      </LoadState>
    </Stack>
  );
}
