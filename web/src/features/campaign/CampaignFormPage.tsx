import type { Campaign, CampaignInput } from '@shared/contracts/campaign';
import type { PageProps } from '../../lib/route-table';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useCampaign, useCampaignCalls } from './api';
import { CAMPAIGN_FIELDS } from './campaign-config';
import { campaignFormValues, campaignPayload, validateCampaign } from './settings';

/** /campaign/create and /campaign/update/:id. */
export function CampaignFormPage({ params }: PageProps) {
  const id = params.id ? Number(params.id) : null;
  const calls = useCampaignCalls();
  const { data, error, isLoading, mutate } = useCampaign(id);
  const item = data?.data ?? null;

  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  const body = (
    <LoadState error={id ? error : null} loading={Boolean(id && (isLoading || !item))}>
      {() => (
        <EntityForm<Campaign, CampaignInput>
          key={item?.id ?? 'new'}
          item={item}
          fields={CAMPAIGN_FIELDS}
          calls={calls}
          initial={campaignFormValues}
          validate={validateCampaign}
          toInput={campaignPayload}
          width={1000}
          listRoute="campaign_list"
          titleKey={id ? 'campaigns.editTitle' : 'campaigns.createTitle'}
          itemLabel={(saved) => saved.name}
          onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
        />
      )}
    </LoadState>
  );
  return (
    <>
      <PageBreadcrumbs section="campaigns" current={crumb} />
      {body}
    </>
  );
}
