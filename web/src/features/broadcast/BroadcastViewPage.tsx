import { Stack } from '@mantine/core';
import type { PageProps } from '../../lib/route-table';
import { DetailTabs } from '../../components/common/DetailTabs';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { BroadcastEngagementTab } from '../engagement/BroadcastEngagementTab';
import { useBroadcast } from './api';
import { BroadcastBaseInfo } from './BroadcastBaseInfo';
import { BroadcastOverview } from './BroadcastOverview';
import { useBroadcastProgressFeed, useLiveBroadcast } from './live-progress';
import { RecipientsTab } from './RecipientsTab';

/** /broadcast/view/:id: the overview (live), then the tabs "base info", "recipients data" and "engagement" (live). */
export function BroadcastViewPage({ params }: PageProps) {
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
            <DetailTabs
              tabs={[
                { value: 'base', labelKey: 'broadcasts.tabs.base', content: () => <BroadcastBaseInfo broadcast={broadcast!} /> },
                {
                  value: 'recipients',
                  labelKey: 'broadcasts.tabs.recipients',
                  content: () => <RecipientsTab broadcast={broadcast!} />,
                },
                { value: 'engagement', labelKey: 'engagement.title', content: () => <BroadcastEngagementTab broadcast={broadcast!} /> },
              ]}
            />
          </Stack>
        )}
      </LoadState>
    </>
  );
}
