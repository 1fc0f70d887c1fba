import type { Subscription, SubscriptionInput } from '@shared/contracts/subscription';
import { DateTime } from '../../components/common/DateTime';
import type { FormFieldConfig, FormValues } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';

/** Subscription list columns; each sorts on the server. */
export const SUBSCRIPTION_COLUMNS: ListColumn<Subscription>[] = [
  { key: 'name', labelKey: 'subscriptions.fields.name', sortable: true },
  { key: 'priority', labelKey: 'list.columns.priority', sortable: true, width: 90 },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'updated_at', labelKey: 'list.columns.updated_at', sortable: true, render: (row) => <DateTime value={row.updated_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** The subscription form: one required name (at most 100 characters, as the server checks). */
export const SUBSCRIPTION_FIELDS: FormFieldConfig[] = [
  { name: 'name', labelKey: 'subscriptions.fields.name', required: true, maxLength: 100, autoFocus: true },
];

/** The request body of a subscription save. */
export function subscriptionInput(values: FormValues): SubscriptionInput {
  return { name: String(values.name ?? '') };
}
