import { Stack, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../app/route-table';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useBroadcast } from './api';
import { BroadcastBaseInfo } from './BroadcastBaseInfo';
import { BroadcastOverview } from './BroadcastOverview';
import { useBroadcastProgressFeed, useLiveBroadcast } from './live-progress';
import { RecipientsTab } from './RecipientsTab';

/** /broadcast/view/:id: the overview (live), then the tabs "base info" and "recipients data". */
export function BroadcastViewPage({ params }: PageProps) {
  const { t } = useTranslation();
  useBroadcastProgressFeed();
  const id = Number(params.id) || null;
  const { data, error, isLoading, mutate } = useBroadcast(id);
  const broadcast = useLiveBroadcast(data?.data ?? null);
  return (
    <>
      <PageBreadcrumbs section="broadcasts" current={{ labelKey: 'broadcasts.view', text: broadcast?.name }} />
      <LoadState error={error} loading={isLoading || !broadcast}>
        {() => (
          <Stack>
            <BroadcastOverview broadcast={broadcast!} onChanged={(next) => void mutate({ data: next }, { revalidate: false })} />
            <Tabs defaultValue="base" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="base" data-testid="tab-base">
                  {t('broadcasts.tabs.base')}
                </Tabs.Tab>
                <Tabs.Tab value="recipients" data-testid="tab-recipients">
                  {t('broadcasts.tabs.recipients')}
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="base" pt="md">
                <BroadcastBaseInfo broadcast={broadcast!} />
              </Tabs.Panel>
              <Tabs.Panel value="recipients" pt="md">
                <RecipientsTab broadcastId={broadcast!.id} />
              </Tabs.Panel>
            </Tabs>
          </Stack>
        )}
      </LoadState>
    </>
  );
}
