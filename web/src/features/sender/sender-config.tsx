import { Badge, TextInput } from '@mantine/core';
import type { Integration } from '@shared/contracts/integration';
import { addressError } from '@shared/address';
import { SENDER_INTEGRATION, type Sender, type SenderInput, type SenderType, type SenderUpdate } from '@shared/contracts/sender';
import { MESSAGES } from '@shared/messages';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import { SenderDomainBadge } from '../../components/domain/sender-domain';
import type { CustomFieldProps, FormFieldConfig, FormValues } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { fieldErrorText } from '../../lib/field-errors';

/** A sender type as a small badge (Email / Phone). */
export function SenderTypeBadge({ type }: { type: SenderType }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={type === 'email' ? 'indigo' : 'teal'}>
      {t(`senders.types.${type}`)}
    </Badge>
  );
}

/** Sender list columns; all but the integration sort on the server. */
export const SENDER_COLUMNS: ListColumn<Sender>[] = [
  { key: 'value', labelKey: 'senders.fields.value', sortable: true },
  { key: 'name', labelKey: 'senders.fields.name', sortable: true, render: (row) => row.name ?? '' },
  { key: 'type', labelKey: 'senders.fields.type', sortable: true, render: (row) => <SenderTypeBadge type={row.type} /> },
  // An email sender's domain: verified (signed by Relay), unverified or broken (issue 37); nothing for SMS.
  { key: 'domain_state', labelKey: 'domains.senderColumn', render: (row) => <SenderDomainBadge sender={row} /> },
  { key: 'integration', labelKey: 'senders.fields.integration', render: (row) => row.integration?.name ?? `#${row.integration_id}` },
  { key: 'priority', labelKey: 'list.columns.priority', sortable: true, width: 90 },
  { key: 'updated_at', labelKey: 'list.columns.updated_at', sortable: true, render: (row) => <DateTime value={row.updated_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** The address input: its label and hint follow the chosen type (email address or +digits phone). */
function SenderValueInput({ props }: { props: CustomFieldProps }) {
  const { t } = useTranslation();
  const type = props.values.type === 'phone' ? 'phone' : 'email';
  return (
    <TextInput
      label={t(`senders.valueLabels.${type}`)}
      description={t(`senders.valueHints.${type}`)}
      placeholder={type === 'phone' ? '+15551234567' : 'news@example.com'}
      withAsterisk
      type={type === 'email' ? 'email' : 'tel'}
      maxLength={254}
      data-testid="form-field-value"
      name="value"
      value={String(props.value ?? '')}
      error={fieldErrorText(t, props.errors.value)}
      onChange={(event) => props.onChange(event.currentTarget.value)}
    />
  );
}

/** The integrations a sender of this type can send through (smtp for email, twilio for phone); all when no type yet. */
export function integrationsForType(integrations: Pick<Integration, 'id' | 'name' | 'type'>[], type: unknown): Pick<Integration, 'id' | 'name' | 'type'>[] {
  if (type !== 'email' && type !== 'phone') return integrations;
  return integrations.filter((integration) => integration.type === SENDER_INTEGRATION[type]);
}

/** The sender form: type and integration on create only, the address in the type's format, a name for email senders. */
export function senderFormFields(types: readonly string[], integrations: Pick<Integration, 'id' | 'name' | 'type'>[], item: Sender | null): FormFieldConfig[] {
  const creating = !item;
  const known = item?.integration && !integrations.some((i) => i.id === item.integration_id) ? [item.integration] : [];
  return [
    {
      name: 'type',
      labelKey: 'senders.fields.type',
      kind: 'select',
      required: true,
      disabled: !creating,
      choices: types.map((type) => ({ value: type, labelKey: `senders.types.${type}` })),
    },
    {
      name: 'integration_id',
      labelKey: 'senders.fields.integration',
      kind: 'select',
      required: true,
      disabled: !creating,
      descriptionKey: creating ? 'senders.hints.integration' : undefined,
      // Only integrations that can send this type (SMTP for email, Twilio for phone).
      choicesFor: (values) =>
        [...integrationsForType(integrations, values.type), ...known].map((integration) => ({
          value: String(integration.id),
          label: `${integration.name} (${integration.type})`,
        })),
    },
    { name: 'value', labelKey: 'senders.fields.value', kind: 'custom', required: true, render: (props) => <SenderValueInput props={props} /> },
    { name: 'name', labelKey: 'senders.fields.name', maxLength: 100, descriptionKey: 'senders.hints.name', visible: (values) => values.type === 'email' },
    { name: 'note', labelKey: 'senders.fields.note', kind: 'textarea', maxLength: 1000 },
  ];
}

/** Starting values: the sender's, or a new email sender. */
export function senderFormValues(item: Sender | null): FormValues {
  return {
    type: item?.type ?? 'email',
    integration_id: item ? String(item.integration_id) : '',
    value: item?.value ?? '',
    name: item?.name ?? '',
    note: item?.note ?? '',
  };
}

/**
 * Keeps type and integration consistent while creating: the integration list offers only the chosen type's, and
 * a type change drops an integration of the other kind (the type is never changed behind the user's back).
 */
export function adjustSenderValues(name: string, next: FormValues, integrations: Pick<Integration, 'id' | 'type'>[]): FormValues {
  if (name === 'type') {
    const integration = integrations.find((i) => String(i.id) === next.integration_id);
    if (integration && integrationsForType([{ ...integration, name: '' }], next.type).length === 0) return { ...next, integration_id: '' };
  }
  return next;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Browser checks: integration and type chosen, the address in the type's format. */
export function validateSender(values: FormValues, creating: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (creating && !text(values.integration_id)) errors.integration_id = [MESSAGES.required];
  if (creating && values.type !== 'email' && values.type !== 'phone') errors.type = [MESSAGES.required];
  const value = text(values.value).trim();
  if (!value) errors.value = [MESSAGES.required];
  else if (values.type === 'email' || values.type === 'phone') {
    const problem = addressError(values.type, value);
    if (problem) errors.value = [problem];
  }
  return errors;
}

/** POST /sender body (the name only for email senders). */
export function senderCreatePayload(values: FormValues): SenderInput {
  const type = values.type as SenderType;
  return {
    integration_id: Number(values.integration_id),
    type,
    value: text(values.value).trim(),
    name: type === 'email' ? text(values.name).trim() || null : null,
    note: text(values.note).trim() || null,
  };
}

/** PUT /sender/{id} body: the integration and type are fixed. */
export function senderUpdatePayload(values: FormValues, item: Sender): SenderUpdate {
  return {
    value: text(values.value).trim(),
    name: item.type === 'email' ? text(values.name).trim() || null : null,
    note: text(values.note).trim() || null,
  };
}
