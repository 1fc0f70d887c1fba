import { Anchor, Badge, Text } from '@mantine/core';
import type { Field } from '@shared/contracts/field';
import type { Form } from '@shared/contracts/form';
import { FORM_LIMITS } from '@shared/contracts/form';
import type { SenderType } from '@shared/contracts/sender';
import type { Subscription } from '@shared/contracts/subscription';
import type { TemplateType } from '@shared/contracts/template';
import { useTranslation } from 'react-i18next';
import { useAllRows } from '../../components/list/use-client-list';
import type { FormFieldConfig } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { FieldsEditor } from './FieldsEditor';

/** The names of a form's subscriptions (from the organisation's list, shared with its cache). */
function SubscriptionNames({ ids }: { ids: number[] }) {
  const { data: subscriptions = [] } = useAllRows<Subscription>('/subscription');
  const names = ids.map((id) => subscriptions.find((s) => s.id === id)?.name ?? `#${id}`);
  return <Text size="sm">{names.join(', ')}</Text>;
}

function YesNo({ value }: { value: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={value ? 'green' : 'gray'}>
      {t(value ? 'forms.yes' : 'forms.no')}
    </Badge>
  );
}

/** Form list columns: name, subscriptions, double opt-in, on/off, sign-ups pending / confirmed, the hosted link. */
export const FORM_COLUMNS: ListColumn<Form>[] = [
  { key: 'name', labelKey: 'forms.fields.name', sortable: true },
  { key: 'subscription_ids', labelKey: 'forms.fields.subscriptions', render: (row) => <SubscriptionNames ids={row.subscription_ids} /> },
  { key: 'double_opt_in', labelKey: 'forms.fields.doubleOptIn', render: (row) => <YesNo value={row.double_opt_in} /> },
  { key: 'enabled', labelKey: 'forms.fields.enabled', render: (row) => <YesNo value={row.enabled} /> },
  {
    key: 'signups',
    labelKey: 'forms.signups',
    render: (row) => (
      <Text size="sm" data-testid="form-signups">
        {row.signups.pending} / {row.signups.confirmed}
      </Text>
    ),
  },
  {
    key: 'url',
    labelKey: 'forms.hostedLink',
    render: (row) => (
      <Anchor href={row.url} target="_blank" rel="noreferrer" size="sm" data-testid="form-url">
        {row.url}
      </Anchor>
    ),
  },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** The organisation's rows the editor chooses from. */
export interface FormChoices {
  subscriptions: Subscription[];
  customFields: Field[];
  senders: { id: number; type: SenderType; value: string; name?: string | null }[];
  templates: { id: number; type: TemplateType; name: string }[];
}

const isRedirect = (values: Record<string, unknown>) => values.after_signup === 'redirect';

/** The form editor: every setting of the list, in the order a person fills them. */
export function formEditorFields(choices: FormChoices): FormFieldConfig[] {
  return [
    { name: 'name', labelKey: 'forms.fields.name', required: true, maxLength: 100, autoFocus: true },
    {
      name: 'subscription_ids',
      labelKey: 'forms.fields.subscriptions',
      kind: 'multiselect',
      required: true,
      choices: choices.subscriptions.map((s) => ({ value: String(s.id), label: s.name })),
    },
    { name: 'fields', labelKey: 'forms.fields.fields', kind: 'custom', render: (props) => <FieldsEditor {...props} customFields={choices.customFields} /> },
    { name: 'double_opt_in', labelKey: 'forms.fields.doubleOptIn', kind: 'switch', descriptionKey: 'forms.doubleOptInHint' },
    {
      name: 'after_signup',
      labelKey: 'forms.fields.afterSignup',
      kind: 'select',
      required: true,
      choices: [
        { value: 'message', labelKey: 'forms.afterSignup.message' },
        { value: 'redirect', labelKey: 'forms.afterSignup.redirect' },
      ],
    },
    {
      name: 'success_message',
      labelKey: 'forms.fields.successMessage',
      kind: 'textarea',
      maxLength: FORM_LIMITS.successMessage,
      descriptionKey: 'forms.successMessageHint',
      visible: (values) => !isRedirect(values),
    },
    { name: 'redirect_url', labelKey: 'forms.fields.redirectUrl', descriptionKey: 'forms.redirectHint', maxLength: 2000, visible: isRedirect },
    {
      name: 'sender_id',
      labelKey: 'forms.fields.sender',
      kind: 'select',
      descriptionKey: 'forms.defaultSenderHint',
      choices: choices.senders.filter((s) => s.type === 'email').map((s) => ({ value: String(s.id), label: s.name ? `${s.name} <${s.value}>` : s.value })),
    },
    {
      name: 'template_id',
      labelKey: 'forms.fields.template',
      kind: 'select',
      descriptionKey: 'forms.defaultMailHint',
      choices: choices.templates.filter((tpl) => tpl.type !== 'text').map((tpl) => ({ value: String(tpl.id), label: tpl.name })),
    },
    { name: 'allowed_origins', labelKey: 'forms.fields.allowedOrigins', kind: 'textarea', descriptionKey: 'forms.originsHint' },
    { name: 'enabled', labelKey: 'forms.fields.enabled', kind: 'switch' },
  ];
}
