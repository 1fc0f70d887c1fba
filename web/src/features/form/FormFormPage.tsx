import type { Form, FormInput } from '@shared/contracts/form';
import type { SenderType } from '@shared/contracts/sender';
import type { Subscription } from '@shared/contracts/subscription';
import type { TemplateType } from '@shared/contracts/template';
import { Stack } from '@mantine/core';
import { useMemo } from 'react';
import { pathOf, type PageProps } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useAllRows } from '../../components/list/use-client-list';
import { useAllFields } from '../field/api';
import { useForm, useFormCalls } from './api';
import { EmbedPanel } from './EmbedPanel';
import { formEditorFields } from './form-config';
import { formEditorInput, formEditorValues } from './form-values';

type SenderRow = { id: number; type: SenderType; value: string; name?: string | null };
type TemplateRow = { id: number; type: TemplateType; name: string };

/** /form/create and /form/update/:id: the form's settings; once saved, its hosted link and embed snippet. */
export function FormFormPage({ params }: PageProps) {
  const id = params.id ? Number(params.id) : null;
  const calls = useFormCalls();
  const table = useRouteTable();
  const form = useForm(id);
  const { fields: customFields, isLoading: fieldsLoading } = useAllFields();
  const { data: subscriptions = [] } = useAllRows<Subscription>('/subscription');
  const { data: senders = [] } = useAllRows<SenderRow>('/sender');
  const { data: templates = [] } = useAllRows<TemplateRow>('/template');
  const editorFields = useMemo(() => formEditorFields({ subscriptions, customFields, senders, templates }), [subscriptions, customFields, senders, templates]);
  const item = form.data?.data ?? null;

  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  return (
    <>
      <PageBreadcrumbs section="forms" current={crumb} />
      <LoadState error={id ? form.error : null} loading={Boolean(id && (form.isLoading || !item)) || fieldsLoading}>
        {() => (
          <Stack>
            <EntityForm<Form, FormInput>
              key={item?.id ?? 'new'}
              item={item}
              fields={editorFields}
              calls={calls}
              initial={formEditorValues}
              toInput={formEditorInput}
              width={720}
              listRoute="form_list"
              titleKey={id ? 'forms.editTitle' : 'forms.createTitle'}
              itemLabel={(saved) => saved.name}
              onSaved={(saved) => void form.mutate({ data: saved }, { revalidate: false })}
              // A new form opens again, now with its hosted link and embed snippet to copy.
              afterSave={(saved, created) => (created ? pathOf(table, 'form_update', { id: saved.id }) : null)}
            />
            {item && <EmbedPanel form={item} subscriptions={subscriptions} customFields={customFields} />}
          </Stack>
        )}
      </LoadState>
    </>
  );
}
