import type { Broadcast, BroadcastInput, BroadcastType, RecipientsPreviewInput } from '@shared/contracts/broadcast';
import { BROADCAST_MESSAGES, BROADCAST_TEMPLATE_TYPES } from '@shared/contracts/broadcast';
import { MESSAGES } from '@shared/messages';
import type { TemplateType } from '@shared/contracts/template';

// The broadcast form's values and the rules it checks before sending (spec 4 and 5), as plain functions.

export interface BroadcastFormValues {
  name: string;
  alias: string;
  note: string;
  type: BroadcastType;
  sender_id: string | null;
  template_id: string | null;
  sleep: number | '';
  immediate: boolean;
  /** A datetime-local value (the browser's local time). */
  delayed_at: string;
  do_not_unsubscribe: boolean;
  subscription_id: string | null;
  skip_unsubscribed: boolean;
  /** Email only; null follows the organisation's default (the field is then left out of the body). */
  track_opens: boolean | null;
  track_clicks: boolean | null;
  tags: string[];
  /** Contact ids, as typed. */
  ids: string[];
  address: string;
  /** One custom-field condition: field id and value (spec 5 attributes). */
  attribute_field: string | null;
  attribute_value: string;
  search: string;
}

/** A Date as a datetime-local input value in the browser's time zone. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The form's starting values: empty, or a copy of `source` (create?source={id}). */
export function broadcastFormValues(source: Broadcast | null, copySuffix = ''): BroadcastFormValues {
  const filter = source?.contacts.filter ?? {};
  const attribute = filter.attributes?.[0];
  return {
    name: source ? `${source.name}${copySuffix}` : '',
    alias: '',
    note: source?.note ?? '',
    type: source?.type ?? 'email',
    sender_id: source?.sender_id ? String(source.sender_id) : null,
    template_id: source?.template_id ? String(source.template_id) : null,
    sleep: source?.sleep ?? 0,
    immediate: true,
    delayed_at: toLocalInput(new Date(Date.now() + 60 * 60_000)),
    do_not_unsubscribe: source?.do_not_unsubscribe ?? false,
    subscription_id: source?.subscription_id ? String(source.subscription_id) : null,
    skip_unsubscribed: source?.skip_unsubscribed ?? true,
    track_opens: source ? source.track_opens : null,
    track_clicks: source ? source.track_clicks : null,
    tags: (filter.tags ?? []).map(String),
    ids: (filter.ids ?? []).map(String),
    address: filter.address ?? '',
    attribute_field: attribute ? String(attribute.field_id) : null,
    attribute_value: attribute?.value ?? '',
    search: source?.contacts.search ?? '',
  };
}

/** The recipients part of the body: { filter, search } with empty keys left out. */
export function recipientsOf(values: BroadcastFormValues): BroadcastInput['contacts'] {
  const filter: BroadcastInput['contacts']['filter'] = { skip_unsubscribed: values.skip_unsubscribed };
  if (values.tags.length) filter.tags = values.tags.map(Number);
  const ids = values.ids.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
  if (ids.length) filter.ids = ids;
  if (values.address.trim()) filter.address = values.address.trim();
  if (values.attribute_field && values.attribute_value.trim())
    filter.attributes = [{ field_id: Number(values.attribute_field), value: values.attribute_value.trim() }];
  return values.search.trim() ? { filter, search: values.search.trim() } : { filter };
}

/**
 * POST /broadcast (spec 7): delayed_at null when immediate, subscription_id omitted when do_not_unsubscribe, the
 * tracking switches only when the user set them (email).
 */
export function broadcastPayload(values: BroadcastFormValues): BroadcastInput {
  const body = {
    name: values.name.trim(),
    alias: values.alias.trim() || null,
    note: values.note.trim() || null,
    type: values.type,
    template_id: Number(values.template_id),
    sender_id: Number(values.sender_id),
    sleep: values.sleep === '' ? 0 : Number(values.sleep),
    delayed_at: values.immediate ? null : new Date(values.delayed_at).toISOString(),
    do_not_unsubscribe: values.do_not_unsubscribe,
    contacts: recipientsOf(values),
  } as BroadcastInput;
  if (!values.do_not_unsubscribe) body.subscription_id = Number(values.subscription_id);
  if (values.type === 'email' && values.track_opens !== null) body.track_opens = values.track_opens;
  if (values.type === 'email' && values.track_clicks !== null) body.track_clicks = values.track_clicks;
  return body;
}

/** The preview call's body for the current values. */
export function previewInput(values: BroadcastFormValues): RecipientsPreviewInput {
  return {
    type: values.type,
    subscription_id: values.do_not_unsubscribe || !values.subscription_id ? null : Number(values.subscription_id),
    contacts: recipientsOf(values),
  };
}

/** What the browser can tell is wrong before sending, in the server's words. */
export function validateBroadcast(values: BroadcastFormValues, now = Date.now()): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!values.name.trim()) errors.name = [MESSAGES.required];
  if (!values.sender_id) errors.sender_id = [MESSAGES.required];
  if (!values.template_id) errors.template_id = [MESSAGES.required];
  if (!values.do_not_unsubscribe && !values.subscription_id) errors.subscription_id = [MESSAGES.required];
  if (!values.immediate) {
    const at = Date.parse(values.delayed_at);
    if (Number.isNaN(at)) errors.delayed_at = [MESSAGES.required];
    else if (at < now) errors.delayed_at = [BROADCAST_MESSAGES.past];
  }
  return errors;
}

/** Whether a template can be sent by a broadcast of this type (email: html and email; phone: text). */
export const templateFits = (type: BroadcastType, templateType: TemplateType) => BROADCAST_TEMPLATE_TYPES[type].includes(templateType);
