import type { Campaign } from '@shared/contracts/campaign';
import { ListScreen } from '../../components/list/ListScreen';
import { useCampaignCalls, useCampaignList } from './api';
import { CAMPAIGN_COLUMNS } from './campaign-config';

/** /campaign: server-paged campaign list; the settings column shows every entry as a chip. */
export function CampaignListPage() {
  const calls = useCampaignCalls();
  return (
    <ListScreen<Campaign>
      listKey="campaign"
      section="campaigns"
      titleKey="campaigns.title"
      columns={CAMPAIGN_COLUMNS}
      defaultSort={{ key: 'created_at', order: 'desc' }}
      createRoute="campaign_create"
      updateRoute="campaign_update"
      calls={calls}
      useList={useCampaignList}
      itemLabel={(campaign) => campaign.name}
    />
  );
}
