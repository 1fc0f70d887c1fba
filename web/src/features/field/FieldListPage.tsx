import { FIELD_TYPES, type Field } from '@shared/contracts/field';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import { useFieldCalls, useFieldList } from './api';
import { FIELD_COLUMNS } from './field-config';

/** The list's filter: the field type (GET /field?type=). */
const FIELD_FILTERS = selectFilters([{ name: 'type', labelKey: 'fields.fields.type', values: FIELD_TYPES, optionsKey: 'fields.types' }]);

/** /field: custom contact fields, loaded whole (not server-paged), searched and sorted in the browser, drag-reorderable. */
export function FieldListPage() {
  const calls = useFieldCalls();
  return (
    <ListScreen<Field>
      listKey="field"
      section="fields"
      titleKey="fields.title"
      columns={FIELD_COLUMNS}
      defaultSort={{ key: 'priority', order: 'asc' }}
      reorderable
      paged={false}
      createRoute="field_create"
      updateRoute="field_update"
      calls={calls}
      useList={useFieldList}
      itemLabel={(field) => field.name}
      filters={FIELD_FILTERS}
    />
  );
}
