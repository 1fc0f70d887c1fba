import type { Form, FormField, FormInput } from '@shared/contracts/form';
import type { FormValues } from '../../components/form/types';

// The editor's values and the request body: ids as strings for the selects, origins one a line, and the choice
// between the message and the redirect after a sign-up (the server keeps whichever is sent, the other null).

export type AfterSignup = 'message' | 'redirect';

const EMAIL_FIELD: FormField = { kind: 'email', required: true };

/** The starting values: the open form's, or a new form's (email asked, double opt-in on, enabled). */
export function formEditorValues(form: Form | null): FormValues {
  return {
    name: form?.name ?? '',
    subscription_ids: (form?.subscription_ids ?? []).map(String),
    fields: form?.fields ?? [EMAIL_FIELD],
    double_opt_in: form?.double_opt_in ?? true,
    after_signup: form?.redirect_url ? 'redirect' : 'message',
    success_message: form?.success_message ?? '',
    redirect_url: form?.redirect_url ?? '',
    sender_id: form?.sender_id ? String(form.sender_id) : '',
    template_id: form?.template_id ? String(form.template_id) : '',
    allowed_origins: (form?.allowed_origins ?? []).join('\n'),
    enabled: form?.enabled ?? true,
  };
}

const idOrNull = (value: unknown) => (value === '' || value === null || value === undefined ? null : Number(value));

/** The fields list with the email first and required, whatever the values hold. */
export function withEmailFirst(fields: FormField[]): FormField[] {
  return [EMAIL_FIELD, ...fields.filter((field) => field.kind !== 'email')];
}

/** The request body of a save (the server validates it). */
export function formEditorInput(values: FormValues): FormInput {
  const redirect = values.after_signup === 'redirect';
  const message = String(values.success_message ?? '').trim();
  return {
    name: String(values.name ?? ''),
    subscription_ids: ((values.subscription_ids as string[]) ?? []).map(Number),
    fields: withEmailFirst((values.fields as FormField[]) ?? []),
    double_opt_in: Boolean(values.double_opt_in),
    success_message: redirect || !message ? null : message,
    redirect_url: redirect ? String(values.redirect_url ?? '').trim() || null : null,
    sender_id: idOrNull(values.sender_id),
    template_id: idOrNull(values.template_id),
    allowed_origins: String(values.allowed_origins ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    enabled: Boolean(values.enabled),
  };
}
