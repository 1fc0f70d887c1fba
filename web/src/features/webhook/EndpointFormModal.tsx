import { ActionIcon, Alert, Button, Checkbox, Group, Modal, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { ALL_EVENT_TYPES, ENDPOINT_HEADERS_MAX, type Endpoint, type EndpointWithSecret } from '@shared/contracts/webhook';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { useWebhookCalls } from './api';
import { checkEndpointForm, emptyEndpointForm, endpointInputOf, type EndpointFormValues, formValuesOf } from './endpoint-form-values';
import { EVENT_FAMILIES } from './event-families';

interface Props {
  /** The endpoint to edit; null to add one. */
  endpoint: Endpoint | null;
  opened: boolean;
  onClose: () => void;
  /** Called with the answer: on create it carries the secret, shown once. */
  onSaved: (endpoint: Endpoint | EndpointWithSecret) => void;
}

/** Add or edit an endpoint: URL, description, event types by family or all, custom headers, batching, on/off. */
export function EndpointFormModal({ endpoint, opened, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} size="lg" title={t(endpoint ? 'webhooks.editTitle' : 'webhooks.addTitle')} data-testid="webhook-form-modal">
      {opened && <EndpointForm endpoint={endpoint} onCancel={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

export function EndpointForm({ endpoint, onCancel, onSaved }: { endpoint: Endpoint | null; onCancel: () => void; onSaved: Props['onSaved'] }) {
  const { t } = useTranslation();
  const calls = useWebhookCalls();
  const { errors, clear, set } = useFormErrors(endpoint ? calls.updateKey(endpoint.id) : calls.createKey());
  const [values, setValues] = useState<EndpointFormValues>(() => (endpoint ? formValuesOf(endpoint) : emptyEndpointForm()));
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const all = values.eventTypes.includes(ALL_EVENT_TYPES);

  const change = (patch: Partial<EndpointFormValues>, field: string) => {
    setValues((v) => ({ ...v, ...patch }));
    clear(field);
  };
  const toggleType = (type: string, on: boolean) =>
    change({ eventTypes: on ? [...values.eventTypes, type] : values.eventTypes.filter((x) => x !== type) }, 'event_types');
  const setHeader = (index: number, patch: Partial<{ name: string; value: string }>) =>
    change({ headers: values.headers.map((h, i) => (i === index ? { ...h, ...patch } : h)) }, `headers.${index}`);

  const submit = async () => {
    setFormError(null);
    const found = checkEndpointForm(values);
    if (Object.keys(found).length) {
      set(found);
      return;
    }
    setSubmitting(true);
    try {
      const input = endpointInputOf(values);
      onSaved(endpoint ? await calls.update(endpoint.id, input) : await calls.create(input));
    } catch (error) {
      if (!(isApiError(error, 'validation_failed') && Object.keys(error.fields).length)) setFormError(translateApiError(t, error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack>
        {formError && (
          <Alert color="red" data-testid="webhook-form-error">
            {formError}
          </Alert>
        )}
        <TextInput
          label={t('webhooks.fields.url')}
          description={t('webhooks.hints.url')}
          placeholder="https://example.com/webhooks/relay"
          withAsterisk
          maxLength={2000}
          value={values.url}
          error={fieldErrorText(t, errors.url)}
          data-autofocus
          data-testid="webhook-url"
          onChange={(e) => change({ url: e.currentTarget.value }, 'url')}
        />
        <Textarea
          label={t('webhooks.fields.description')}
          maxLength={500}
          autosize
          minRows={1}
          value={values.description}
          error={fieldErrorText(t, errors.description)}
          data-testid="webhook-description"
          onChange={(e) => change({ description: e.currentTarget.value }, 'description')}
        />
        <Stack gap="xs" data-testid="webhook-event-types">
          <Text size="sm" fw={500}>
            {t('webhooks.fields.eventTypes')}{' '}
            <Text span c="red">
              *
            </Text>
          </Text>
          <Checkbox
            label={t('webhooks.allEvents')}
            description={t('webhooks.hints.allEvents')}
            checked={all}
            data-testid="webhook-type-all"
            onChange={(e) => toggleType(ALL_EVENT_TYPES, e.currentTarget.checked)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {EVENT_FAMILIES.map((family) => (
              <Checkbox.Group
                key={family.key}
                label={t(`webhooks.families.${family.key}`)}
                value={all ? [...family.types] : values.eventTypes.filter((x) => (family.types as readonly string[]).includes(x))}
                onChange={(chosen) => {
                  const others = values.eventTypes.filter((x) => !(family.types as readonly string[]).includes(x));
                  change({ eventTypes: [...others, ...chosen] }, 'event_types');
                }}
              >
                <Stack gap={4} mt={4}>
                  {family.types.map((type) => (
                    <Checkbox key={type} value={type} label={type} disabled={all} size="xs" data-testid={`webhook-type-${type}`} />
                  ))}
                </Stack>
              </Checkbox.Group>
            ))}
          </SimpleGrid>
          {errors.event_types && (
            <Text size="xs" c="red" data-testid="webhook-event-types-error">
              {fieldErrorText(t, errors.event_types)}
            </Text>
          )}
        </Stack>
        <Stack gap="xs" data-testid="webhook-headers">
          <Text size="sm" fw={500}>
            {t('webhooks.fields.headers')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('webhooks.hints.headers')}
          </Text>
          {values.headers.map((header, index) => {
            const message = errors[`headers.${header.name.trim()}`] ?? errors[`headers.${index}`];
            return (
              <Group key={index} gap="xs" align="flex-start" wrap="nowrap" data-testid="webhook-header-row">
                <TextInput
                  style={{ flex: 1, minWidth: 0 }}
                  aria-label={t('webhooks.fields.headerName')}
                  placeholder={t('webhooks.fields.headerName')}
                  value={header.name}
                  error={fieldErrorText(t, message)}
                  data-testid="webhook-header-name"
                  onChange={(e) => setHeader(index, { name: e.currentTarget.value })}
                />
                <TextInput
                  style={{ flex: 1, minWidth: 0 }}
                  aria-label={t('webhooks.fields.headerValue')}
                  placeholder={t('webhooks.fields.headerValue')}
                  maxLength={1000}
                  value={header.value}
                  data-testid="webhook-header-value"
                  onChange={(e) => setHeader(index, { value: e.currentTarget.value })}
                />
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  mt={6}
                  aria-label={t('webhooks.removeHeader')}
                  onClick={() => change({ headers: values.headers.filter((_, i) => i !== index) }, 'headers')}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            );
          })}
          {errors.headers && (
            <Text size="xs" c="red">
              {fieldErrorText(t, errors.headers)}
            </Text>
          )}
          <Group>
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconPlus size={14} />}
              disabled={values.headers.length >= ENDPOINT_HEADERS_MAX}
              data-testid="webhook-header-add"
              onClick={() => change({ headers: [...values.headers, { name: '', value: '' }] }, 'headers')}
            >
              {t('webhooks.addHeader')}
            </Button>
          </Group>
        </Stack>
        <Switch
          label={t('webhooks.fields.batch')}
          description={t('webhooks.hints.batch')}
          checked={values.batch}
          data-testid="webhook-batch"
          onChange={(e) => change({ batch: e.currentTarget.checked }, 'batch')}
        />
        <Switch
          label={t('webhooks.fields.enabled')}
          checked={values.enabled}
          data-testid="webhook-enabled"
          onChange={(e) => change({ enabled: e.currentTarget.checked }, 'enabled')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} data-testid="webhook-form-cancel">
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={submitting} data-testid="webhook-form-submit">
            {t(endpoint ? 'common.save' : 'webhooks.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
