import { addressError, normalizeAddress } from '../../../shared/address';
import { FORM_POST_FIELDS } from '../../../shared/contracts/form';
import type { AttributeValue } from '../../../shared/contracts/contact';
import type { PublicForm } from './read-form';
import type { FormKey } from './strings';

// A post of the hosted form read against the form: which fields it asks (required or not), custom fields by their
// type, and the subscriptions chosen. Messages are keys of the page's strings, shown beside the field (422).

export const TEXT_MAX = { name: 200, custom: 1000 } as const;

export interface SignupValues {
  email: string;
  name: string | null;
  phone: string | null;
  /** Custom field values as the contact writer takes them. */
  attributes: { field_id: number; value: AttributeValue }[];
  subscriptionIds: number[];
}

export type Checked = { ok: true; values: SignupValues } | { ok: false; errors: Record<string, FormKey> };

/** The post's field name of a custom field. */
export const customName = (alias: string) => `${FORM_POST_FIELDS.customPrefix}${alias}`;

const TRUE = new Set(['1', 'true', 'on', 'yes']);

/** Reads and checks a post; nothing is written from a post that is not ok. */
export function checkSubmission(form: PublicForm, post: URLSearchParams): Checked {
  const errors: Record<string, FormKey> = {};
  const text = (name: string) => (post.get(name) ?? '').trim();
  const values: SignupValues = { email: '', name: null, phone: null, attributes: [], subscriptionIds: [] };

  for (const field of form.fields) {
    if (field.kind === 'email') {
      const raw = text(FORM_POST_FIELDS.email);
      if (!raw) errors[FORM_POST_FIELDS.email] = 'fieldRequired';
      else if (addressError('email', raw)) errors[FORM_POST_FIELDS.email] = 'emailInvalid';
      else values.email = normalizeAddress('email', raw);
    } else if (field.kind === 'name') {
      const raw = text(FORM_POST_FIELDS.name);
      if (!raw && field.required) errors[FORM_POST_FIELDS.name] = 'fieldRequired';
      else if (raw.length > TEXT_MAX.name) errors[FORM_POST_FIELDS.name] = 'textTooLong';
      else values.name = raw || null;
    } else if (field.kind === 'phone') {
      const raw = text(FORM_POST_FIELDS.phone).replace(/[\s().-]/g, '');
      if (!raw && field.required) errors[FORM_POST_FIELDS.phone] = 'fieldRequired';
      else if (raw && addressError('phone', raw)) errors[FORM_POST_FIELDS.phone] = 'phoneInvalid';
      else values.phone = raw || null;
    } else if (field.kind === 'custom' && field.alias) {
      const info = form.custom.get(field.alias);
      if (!info) continue;
      const name = customName(field.alias);
      const result = customValue(
        info.type,
        info.options,
        post
          .getAll(name)
          .map((v) => v.trim())
          .filter(Boolean),
        field.required,
      );
      if ('error' in result) errors[name] = result.error;
      else if (result.value !== null) values.attributes.push({ field_id: info.id, value: result.value });
    }
  }
  // The email is asked even by a form whose fields somehow lack it.
  if (!form.fields.some((f) => f.kind === 'email')) errors[FORM_POST_FIELDS.email] = 'fieldRequired';

  const offered = form.subscriptions.map((s) => s.id);
  if (offered.length === 1) values.subscriptionIds = offered;
  else {
    const chosen = new Set(post.getAll(FORM_POST_FIELDS.subscription).map(Number));
    values.subscriptionIds = offered.filter((id) => chosen.has(id));
    if (values.subscriptionIds.length === 0) errors[FORM_POST_FIELDS.subscription] = 'chooseSubscription';
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, values };
}

/** One custom field's value by its type (null: nothing given), or the message saying why it does not fit. */
function customValue(
  type: string,
  options: { id: number; value: string }[],
  given: string[],
  required: boolean,
): { value: AttributeValue | null } | { error: FormKey } {
  const option = (v: string) => options.find((o) => o.value === v || String(o.id) === v);
  if (type === 'boolean') {
    const on = given.some((v) => TRUE.has(v.toLowerCase()));
    if (required && !on) return { error: 'fieldRequired' };
    return { value: on ? true : null };
  }
  if (given.length === 0) return required ? { error: 'fieldRequired' } : { value: null };
  const first = given[0];
  switch (type) {
    case 'number': {
      const n = Number(first.replace(',', '.'));
      return Number.isFinite(n) ? { value: n } : { error: 'numberInvalid' };
    }
    case 'text':
      return first.length > TEXT_MAX.custom ? { error: 'textTooLong' } : { value: first };
    case 'select': {
      const found = option(first);
      return found ? { value: { option_id: found.id } } : { error: 'optionInvalid' };
    }
    case 'multiselect': {
      const found = given.map(option);
      if (found.some((o) => !o)) return { error: 'optionInvalid' };
      return { value: [...new Set(found.map((o) => o!.id))].map((id) => ({ option_id: id })) };
    }
    default:
      return { value: null };
  }
}
