import type { Tag, TagInput } from '@shared/contracts/tag';
import type { PageProps } from '../../lib/route-table';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useTag, useTagCalls } from './api';
import { TAG_FIELDS, tagInput } from './tag-config';

/** /tag/create and /tag/update/:id: the shared entity form with the tag's fields. */
export function TagFormPage({ params }: PageProps) {
  const id = params.id ? Number(params.id) : null;
  const calls = useTagCalls();
  const { data, error, isLoading, mutate } = useTag(id);
  const item = data?.data ?? null;

  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  const body = (
    <LoadState error={id ? error : null} loading={Boolean(id && (isLoading || !item))}>
      {() => (
        <EntityForm<Tag, TagInput>
          key={item?.id ?? 'new'}
          item={item}
          fields={TAG_FIELDS}
          calls={calls}
          toInput={tagInput}
          listRoute="tag_list"
          titleKey={id ? 'tags.editTitle' : 'tags.createTitle'}
          itemLabel={(tag) => tag.name}
          onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
        />
      )}
    </LoadState>
  );
  return (
    <>
      <PageBreadcrumbs section="tags" current={crumb} />
      {body}
    </>
  );
}
