import { Alert, Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { isApiError } from '../../lib/api-error';
import type { EntityCalls } from '../../lib/entity-calls';
import { useFormErrors } from '../../lib/field-errors';
import { useInvalidateList } from '../../lib/list-revision';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { confirmDelete } from '../common/confirm';
import { notifyError, notifySuccess } from '../common/notify';
import { FormField } from './FormField';
import { errorsOfField, initialValues, type FormFieldConfig, type FormValues } from './types';

export interface EntityFormProps<T extends { id: number }, Input> {
  /** The open item (update route), or null to create. */
  item: T | null;
  fields: FormFieldConfig[];
  calls: Pick<EntityCalls<T, Input>, 'path' | 'create' | 'update' | 'remove' | 'createKey' | 'updateKey'>;
  /** Turns the form values into the request body (the server validates it). */
  toInput: (values: FormValues) => Input;
  /** Route name of the list to go back to. */
  listRoute: string;
  titleKey: string;
  /** How the item is named in the delete prompt. */
  itemLabel: (item: T) => string;
  /** Called after a successful save (e.g. to update the item's cache). */
  onSaved?: (item: T) => void;
  /** The starting values, when the item's own fields are not the form's values (ids instead of objects...). */
  initial?: (item: T | null) => FormValues;
  /** Checks in the browser before sending: messages by field path, shown like a server 422 (nothing is sent). */
  validate?: (values: FormValues) => Record<string, string[]>;
  /** Maximum width of the form (default 640). */
  width?: number;
  /** The maximum width from the current values (e.g. wider for an html template); wins over `width`. */
  widthOf?: (values: FormValues) => number;
  /** Adjusts the values after one field changed (e.g. a type change that clears fields of the old type). */
  onFieldChange?: (name: string, next: FormValues, previous: FormValues) => FormValues;
  /** Extra content below the fields (e.g. attachments, a connection test result). */
  children?: ReactNode;
  /** Extra buttons next to save and cancel. */
  actions?: ReactNode;
  /** Buttons beside the title, in view as the form opens (e.g. a template's "Send test message"). */
  headerActions?: ReactNode;
  /** False hides the delete button of an open item (forms that edit a part of it, like credentials). */
  deletable?: boolean;
  /** Locale key of the success message (default: created / saved). */
  successKey?: string;
  /** Runs after a save, before leaving; may return the path to go to instead of the list. Handles its own errors. */
  afterSave?: (saved: T, created: boolean) => Promise<string | null | void> | string | null | void;
}

/** The one entity form: configured fields, POST or PUT, 422 messages on fields (cleared per field on edit), delete when open. */
export function EntityForm<T extends { id: number }, Input>(props: EntityFormProps<T, Input>) {
  const { item, fields, calls, toInput, listRoute, titleKey, itemLabel, onSaved, initial, validate, width, onFieldChange } = props;
  const { t } = useTranslation();
  const table = useRouteTable();
  const [, navigate] = useLocation();
  const invalidateList = useInvalidateList();
  const [values, setValues] = useState<FormValues>(() => (initial ? initial(item) : initialValues(fields, item as Record<string, unknown> | null)));
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  // Each refused submit asks to bring the first field with a message into view (it may be far below the top).
  const [shownRefusal, showRefusal] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!shownRefusal) return;
    const frame = requestAnimationFrame(() => {
      const form = formRef.current;
      const first = form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('[data-testid="form-error"]');
      first?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
      first?.focus?.({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [shownRefusal]);
  const requestKey = item ? calls.updateKey(item.id) : calls.createKey();
  const { errors: fieldErrors, clear, set } = useFormErrors(requestKey);
  const shown = fields.filter((field) => field.visible?.(values) ?? true);
  const fieldNames = new Set(shown.map((f) => f.name));
  const belongsToField = (path: string) => fieldNames.has(path) || shown.some((f) => f.kind === 'custom' && path.startsWith(`${f.name}.`));
  const otherErrors = Object.entries(fieldErrors)
    .filter(([name]) => !belongsToField(name))
    .flatMap(([, messages]) => messages);

  const backToList = () => navigate(pathOf(table, listRoute) ?? '/');

  const change = (name: string, value: unknown, paths: string[] = []) => {
    setValues((current) => {
      const next = { ...current, [name]: value };
      return onFieldChange ? onFieldChange(name, next, current) : next;
    });
    for (const path of [name, ...paths]) clear(path);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setFormError(null);
    const problems = validate?.(values) ?? {};
    if (Object.keys(problems).length) {
      set(problems);
      setFormError(t('server.invalidForm'));
      setSubmitting(false);
      showRefusal((n) => n + 1);
      return;
    }
    try {
      const input = toInput(values);
      const saved = item ? await calls.update(item.id, input) : await calls.create(input);
      onSaved?.(saved);
      invalidateList(calls.path);
      const next = await props.afterSave?.(saved, !item);
      notifySuccess(t(props.successKey ?? (item ? 'form.updated' : 'form.created')));
      if (next) navigate(next);
      else backToList();
    } catch (error) {
      setFormError(isApiError(error, 'validation_failed') ? t('server.invalidForm') : translateApiError(t, error));
      showRefusal((n) => n + 1);
    } finally {
      setSubmitting(false);
    }
  };

  const remove = () => {
    if (!item) return;
    confirmDelete({
      title: t('list.deleteOneTitle'),
      message: t('list.deleteOneMessage', { name: itemLabel(item) }),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: async () => {
        try {
          await calls.remove(item.id);
          invalidateList(calls.path);
          notifySuccess(t('list.deletedOne'));
          backToList();
        } catch (error) {
          notifyError(translateApiError(t, error));
        }
      },
    });
  };

  return (
    <Paper
      ref={formRef}
      withBorder
      p="lg"
      maw={props.widthOf?.(values) ?? width ?? 640}
      component="form"
      onSubmit={submit}
      noValidate
      data-testid="entity-form"
    >
      <Stack>
        {props.headerActions ? (
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Title order={3}>{t(titleKey)}</Title>
            <Group gap="xs">{props.headerActions}</Group>
          </Group>
        ) : (
          <Title order={3}>{t(titleKey)}</Title>
        )}
        {formError && (
          <Alert color="red" data-testid="form-error">
            {formError}
            {otherErrors.map((message) => (
              <div key={message}>{translateServerMessage(t, message)}</div>
            ))}
          </Alert>
        )}
        {shown.map((field) => (
          <FormField
            key={field.name}
            field={field}
            value={values[field.name]}
            errors={fieldErrors[field.name]}
            nestedErrors={field.kind === 'custom' ? errorsOfField(fieldErrors, field.name) : undefined}
            values={values}
            onChange={(value, paths) => change(field.name, value, paths)}
          />
        ))}
        {props.children}
        <Group justify="space-between">
          <Group gap="xs">
            <Button type="submit" loading={submitting} data-testid="form-submit">
              {t(item ? 'common.save' : 'common.create')}
            </Button>
            <Button variant="default" onClick={backToList} data-testid="form-cancel">
              {t('common.cancel')}
            </Button>
            {props.actions}
          </Group>
          {item && props.deletable !== false && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={remove} data-testid="form-delete">
              {t('common.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
