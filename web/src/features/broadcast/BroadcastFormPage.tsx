import { Button, Group, NumberInput, Paper, SegmentedControl, Select, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import type { Subscription } from '@shared/contracts/subscription';
import type { TemplateListItem } from '@shared/contracts/template';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SenderDomainWarning, type SenderWithDomain } from '../../components/domain/sender-domain';
import { FormRow } from '../../components/form/FormRow';
import { useLocation, useSearch } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable, useServices } from '../../lib/services-context';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useAllRows } from '../../components/list/use-client-list';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { useOrganization } from '../account/api';
import { BROADCAST_PATH, useBroadcast, useBroadcastCalls } from './api';
import { broadcastFormValues, broadcastPayload, templateFits, validateBroadcast, type BroadcastFormValues } from './broadcast-form';
import { RecipientsFilterFields } from './RecipientsFilterFields';
import { RecipientsPreviewPanel } from './RecipientsPreviewPanel';
import { useRecipientsPreview } from './use-recipients-preview';

/** /broadcast/create, or /broadcast/create?source={id} to start from a copy of a broadcast. */
export function BroadcastFormPage() {
  const { t } = useTranslation();
  const sourceId = Number(new URLSearchParams(useSearch()).get('source')) || null;
  const { data, error, isLoading } = useBroadcast(sourceId);
  const source = data?.data ?? null;
  return (
    <>
      <PageBreadcrumbs section="broadcasts" current={{ labelKey: 'common.create' }} />
      <LoadState error={sourceId ? error : null} loading={Boolean(sourceId && (isLoading || !source))}>
        {() => <BroadcastForm key={source?.id ?? 'new'} initial={broadcastFormValues(source, source ? ` ${t('broadcasts.copySuffix')}` : '')} />}
      </LoadState>
    </>
  );
}

function BroadcastForm({ initial }: { initial: BroadcastFormValues }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const table = useRouteTable();
  const [, navigate] = useLocation();
  const calls = useBroadcastCalls();
  const form = useFormErrors(client.keyOf('POST', BROADCAST_PATH));
  const [values, setValues] = useState(initial);
  const [saving, setSaving] = useState(false);
  const { data: senders = [] } = useAllRows<SenderWithDomain>('/sender');
  const { data: templates = [] } = useAllRows<TemplateListItem>('/template');
  const { data: subscriptions = [] } = useAllRows<Subscription>('/subscription');
  const preview = useRecipientsPreview(values);
  // The tracking switches start at the organisation's defaults.
  const organization = useOrganization().data?.data;

  const change = (patch: Partial<BroadcastFormValues>) => {
    for (const key of Object.keys(patch)) form.clear(key);
    // The type decides which senders and templates fit: changing it clears both.
    setValues((v) => (patch.type && patch.type !== v.type ? { ...v, ...patch, sender_id: null, template_id: null } : { ...v, ...patch }));
  };
  const err = (field: string) => fieldErrorText(t, form.errors[field]);
  const canSubmit = !saving && Boolean(preview.preview && preview.preview.total > 0);

  const submit = async () => {
    const problems = validateBroadcast(values);
    if (Object.keys(problems).length) {
      form.set(problems);
      notifyError(t('server.invalidForm'));
      return;
    }
    setSaving(true);
    try {
      const saved = await calls.create(broadcastPayload(values));
      notifySuccess(t(values.immediate ? 'broadcasts.created' : 'broadcasts.scheduled', { name: saved.name }));
      navigate(pathOf(table, 'broadcast_view', { id: saved.id }) ?? '/');
    } catch (error) {
      notifyError(isApiError(error) && error.status === 422 ? t('server.invalidForm') : translateApiError(t, error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder p="lg" maw={1000}>
      <Title order={2} mb="md">
        {t('broadcasts.createTitle')}
      </Title>
      <Stack gap="sm">
        <TextInput
          label={t('broadcasts.fields.name')}
          required
          data-testid="form-field-name"
          value={values.name}
          onChange={(e) => change({ name: e.currentTarget.value })}
          error={err('name')}
          maxLength={200}
          autoFocus
        />
        <FormRow>
          <TextInput
            label={t('broadcasts.fields.alias')}
            data-testid="form-field-alias"
            value={values.alias}
            onChange={(e) => change({ alias: e.currentTarget.value })}
            error={err('alias')}
            maxLength={100}
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('broadcasts.fields.type')}
            </Text>
            <SegmentedControl
              data-testid="form-field-type"
              value={values.type}
              onChange={(type) => change({ type: type as BroadcastFormValues['type'] })}
              data={[
                { value: 'email', label: t('broadcasts.types.email') },
                { value: 'phone', label: t('broadcasts.types.phone') },
              ]}
            />
          </div>
        </FormRow>
        <FormRow>
          <Select
            label={t('broadcasts.fields.sender')}
            required
            searchable
            data-testid="form-field-sender_id"
            data={senders.filter((s) => s.type === values.type).map((s) => ({ value: String(s.id), label: s.name ? `${s.name} <${s.value}>` : s.value }))}
            value={values.sender_id}
            onChange={(id) => change({ sender_id: id })}
            error={err('sender_id')}
          />
          <Select
            label={t('broadcasts.fields.template')}
            required
            searchable
            data-testid="form-field-template_id"
            data={templates.filter((tpl) => templateFits(values.type, tpl.type)).map((tpl) => ({ value: String(tpl.id), label: tpl.name }))}
            value={values.template_id}
            onChange={(id) => change({ template_id: id })}
            error={err('template_id')}
          />
        </FormRow>
        {/* A sender on an unverified or broken domain: warned, not refused (the relay may sign). */}
        <SenderDomainWarning sender={senders.find((s) => String(s.id) === values.sender_id)} />
        <FormRow>
          <NumberInput
            label={t('broadcasts.fields.sleep')}
            description={t('broadcasts.hints.sleep')}
            data-testid="form-field-sleep"
            min={0}
            allowDecimal={false}
            value={values.sleep}
            onChange={(sleep) => change({ sleep: sleep === '' ? '' : Number(sleep) })}
            error={err('sleep')}
          />
          <Stack gap={6}>
            <Switch
              label={t('broadcasts.fields.immediate')}
              data-testid="form-field-immediate"
              checked={values.immediate}
              onChange={(e) => change({ immediate: e.currentTarget.checked })}
            />
            {!values.immediate && (
              <TextInput
                type="datetime-local"
                label={t('broadcasts.fields.delayed_at')}
                required
                data-testid="form-field-delayed_at"
                value={values.delayed_at}
                onChange={(e) => change({ delayed_at: e.currentTarget.value })}
                error={err('delayed_at')}
              />
            )}
          </Stack>
        </FormRow>
        <FormRow>
          <Switch
            label={t('broadcasts.fields.do_not_unsubscribe')}
            description={t('broadcasts.hints.doNotUnsubscribe')}
            data-testid="form-field-do_not_unsubscribe"
            checked={values.do_not_unsubscribe}
            onChange={(e) => change({ do_not_unsubscribe: e.currentTarget.checked })}
          />
          {!values.do_not_unsubscribe && (
            <Select
              label={t('broadcasts.fields.subscription')}
              required
              searchable
              data-testid="form-field-subscription_id"
              data={subscriptions.map((s) => ({ value: String(s.id), label: s.name }))}
              value={values.subscription_id}
              onChange={(id) => change({ subscription_id: id })}
              error={err('subscription_id')}
            />
          )}
        </FormRow>
        {values.type === 'email' && (
          <FormRow>
            <Switch
              label={t('engagement.trackOpens')}
              description={t('engagement.trackOpensHint')}
              data-testid="form-field-track_opens"
              checked={values.track_opens ?? organization?.track_opens ?? true}
              onChange={(e) => change({ track_opens: e.currentTarget.checked })}
            />
            <Switch
              label={t('engagement.trackClicks')}
              description={t('engagement.trackClicksHint')}
              data-testid="form-field-track_clicks"
              checked={values.track_clicks ?? organization?.track_clicks ?? true}
              onChange={(e) => change({ track_clicks: e.currentTarget.checked })}
            />
          </FormRow>
        )}
        <Title order={4} mt="sm">
          {t('broadcasts.recipients')}
        </Title>
        <RecipientsFilterFields values={values} onChange={change} error={err('contacts') ?? err('contacts.filter.tags') ?? err('contacts.filter.ids')} />
        <RecipientsPreviewPanel {...preview} />
        <Textarea
          label={t('broadcasts.fields.note')}
          data-testid="form-field-note"
          value={values.note}
          onChange={(e) => change({ note: e.currentTarget.value })}
          maxLength={1000}
          autosize
          minRows={2}
        />
        <Group justify="flex-end">
          <Button
            onClick={() => void submit()}
            loading={saving}
            disabled={!canSubmit}
            data-testid="form-submit"
            title={canSubmit ? undefined : t('broadcasts.preview.none')}
          >
            {values.immediate ? t('common.create') : t('broadcasts.schedule')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
