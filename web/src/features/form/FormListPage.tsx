import type { Form } from '@shared/contracts/form';
import { ListScreen } from '../../components/list/ListScreen';
import { useFormCalls, useFormList } from './api';
import { FORM_COLUMNS } from './form-config';

/** /form: the organisation's hosted sign-up forms, server-paged, newest first. */
export function FormListPage() {
  const calls = useFormCalls();
  return (
    <ListScreen<Form>
      listKey="form"
      section="forms"
      titleKey="forms.title"
      columns={FORM_COLUMNS}
      defaultSort={{ key: 'id', order: 'desc' }}
      createRoute="form_create"
      updateRoute="form_update"
      calls={calls}
      useList={useFormList}
      itemLabel={(form) => form.name}
    />
  );
}
