import type { Tag } from '@shared/contracts/tag';
import { ListScreen } from '../../components/list/ListScreen';
import { useTagCalls, useTagList } from './api';
import { TAG_COLUMNS } from './tag-config';

/** /tag: the tag list (drag-reorderable, default sort priority ascending). */
export function TagListPage() {
  const calls = useTagCalls();
  return (
    <ListScreen<Tag>
      listKey="tag"
      section="tags"
      titleKey="tags.title"
      columns={TAG_COLUMNS}
      defaultSort={{ key: 'priority', order: 'asc' }}
      reorderable
      createRoute="tag_create"
      updateRoute="tag_update"
      calls={calls}
      useList={useTagList}
      itemLabel={(tag) => tag.name}
    />
  );
}
