import { Alert, Button, Group, Paper, Stack, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { pathOf } from '../../app/route-table';
import { useRouteTable, useServices } from '../../app/services-context';
import { isApiError } from '../../lib/api-error';
import type { EntityCalls } from '../../lib/entity-calls';
import { clearFieldError, useFieldErrors } from '../../lib/field-errors';
import { useInvalidateList } from '../../lib/list-revision';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { confirmDelete } from '../common/confirm';
import { notifyError, notifySuccess } from '../common/notify';
import { FormField } from './FormField';
import { initialValues, type FormFieldConfig, type FormValues } from './types';

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
}

/** The one entity form: configured fields, POST or PUT, 422 messages on fields (cleared per field on edit), delete when open. */
export function EntityForm<T extends { id: number }, Input>({ item, fields, calls, toInput, listRoute, titleKey, itemLabel, onSaved }: EntityFormProps<T, Input>) {
  const { t } = useTranslation();
  const { store } = useServices();
  const table = useRouteTable();
  const [, navigate] = useLocation();
  const invalidateList = useInvalidateList();
  const [values, setValues] = useState<FormValues>(() => initialValues(fields, item as Record<string, unknown> | null));
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const requestKey = item ? calls.updateKey(item.id) : calls.createKey();
  const fieldErrors = useFieldErrors(requestKey);
  const fieldNames = new Set(fields.map((f) => f.name));
  const otherErrors = Object.entries(fieldErrors).filter(([name]) => !fieldNames.has(name)).flatMap(([, messages]) => messages);

  const backToList = () => navigate(pathOf(table, listRoute) ?? '/');

  const change = (name: string, value: unknown) => {
    setValues((current) => ({ ...current, [name]: value }));
    clearFieldError(store, requestKey, name);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitting(true);
    setFormError(null);
    try {
      const input = toInput(values);
      const saved = item ? await calls.update(item.id, input) : await calls.create(input);
      onSaved?.(saved);
      invalidateList(calls.path);
      notifySuccess(t(item ? 'form.updated' : 'form.created'));
      backToList();
    } catch (error) {
      setFormError(isApiError(error, 'validation_failed') ? t('server.invalidForm') : translateApiError(t, error));
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
    <Paper withBorder p="lg" maw={640} component="form" onSubmit={submit} noValidate data-testid="entity-form">
      <Stack>
        <Title order={3}>{t(titleKey)}</Title>
        {formError && (
          <Alert color="red" data-testid="form-error">
            {formError}
            {otherErrors.map((message) => (
              <div key={message}>{translateServerMessage(t, message)}</div>
            ))}
          </Alert>
        )}
        {fields.map((field) => (
          <FormField key={field.name} field={field} value={values[field.name]} errors={fieldErrors[field.name]} onChange={(value) => change(field.name, value)} />
        ))}
        <Group justify="space-between">
          <Group gap="xs">
            <Button type="submit" loading={submitting} data-testid="form-submit">
              {t(item ? 'common.save' : 'common.create')}
            </Button>
            <Button variant="default" onClick={backToList} data-testid="form-cancel">
              {t('common.cancel')}
            </Button>
          </Group>
          {item && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={remove} data-testid="form-delete">
              {t('common.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
