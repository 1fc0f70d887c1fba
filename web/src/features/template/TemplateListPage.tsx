import type { TemplateListItem } from '@shared/contracts/template';
import { TEMPLATE_TYPES } from '@shared/contracts/template';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import { useTemplateCalls, useTemplateList } from './api';
import { TEMPLATE_COLUMNS } from './template-config';

/** The list's filter: the template type (GET /template?type=). */
const TEMPLATE_FILTERS = selectFilters([{ name: 'type', labelKey: 'templates.fields.type', values: TEMPLATE_TYPES, optionsKey: 'templates.types' }]);

/** /template: server-paged template list with search and sort (default: recently updated first). */
export function TemplateListPage() {
  const calls = useTemplateCalls();
  return (
    <ListScreen<TemplateListItem>
      listKey="template"
      section="templates"
      titleKey="templates.title"
      columns={TEMPLATE_COLUMNS}
      defaultSort={{ key: 'updated_at', order: 'desc' }}
      createRoute="template_create"
      updateRoute="template_update"
      calls={calls}
      useList={useTemplateList}
      itemLabel={(template) => template.name}
      filters={TEMPLATE_FILTERS}
    />
  );
}
