import { useServices } from '../../app/services-context';
import { clearFieldError, setFieldErrors, useFieldErrors } from '../../lib/field-errors';

/** A form's field messages (server 422s kept under its request key) with helpers to clear one field or set browser checks. */
export function useFormErrors(requestKey: string) {
  const { store } = useServices();
  const errors = useFieldErrors(requestKey);
  return {
    errors,
    /** Clears a field's messages: called when the user edits it. */
    clear: (field: string) => clearFieldError(store, requestKey, field),
    /** Shows messages found in the browser before anything is sent, like a server 422. */
    set: (fields: Record<string, string[]>) => setFieldErrors(store, requestKey, fields),
  };
}
