import { NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { RETENTION_DAYS, type OrganizationSettings } from '@shared/contracts/account';
import { SOFT_BOUNCE_DAYS, SOFT_BOUNCE_LIMIT } from '@shared/contracts/suppression';
import { MESSAGES } from '@shared/messages';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { notifySuccess } from '../../components/common/notify';
import { FormRow } from '../../components/form/FormRow';
import { LoadState } from '../../components/form/LoadState';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { isApiError } from '../../lib/api-error';
import { fieldErrorText, useFormErrors } from '../../lib/field-errors';
import { translateApiError } from '../../lib/server-messages';
import { currentUserAtom } from '../../lib/session-state';
import { useIsDemo } from './account-state';
import { AccountFormCard } from './AccountFormCard';
import { useAccountCalls, useOrganization } from './api';

/** /me/organization: the organisation's name (its domain is shown, never edited), its tracking defaults, message retention and soft-bounce rule. */
export function MyOrganizationPage() {
  const { data, error, isLoading, mutate } = useOrganization();
  const organization = data?.data;
  return (
    <AccountLayout>
      <LoadState error={error} loading={isLoading || !organization}>
        {() => (
          <OrganizationForm key={organization!.id} organization={organization!} onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })} />
        )}
      </LoadState>
    </AccountLayout>
  );
}

function OrganizationForm({ organization, onSaved }: { organization: OrganizationSettings; onSaved: (saved: OrganizationSettings) => void }) {
  const { t } = useTranslation();
  const { store } = useServices();
  const calls = useAccountCalls();
  const demo = useIsDemo();
  const [name, setName] = useState(organization.name);
  const [tracking, setTracking] = useState({ track_opens: organization.track_opens, track_clicks: organization.track_clicks });
  // Empty: the platform's default.
  const [retention, setRetention] = useState<number | null>(organization.message_retention_days);
  // Soft bounces that suppress an address, within how many days ('' while the field is emptied: the server says why).
  const [softBounces, setSoftBounces] = useState<{ soft_bounce_limit: number | ''; soft_bounce_days: number | '' }>({
    soft_bounce_limit: organization.soft_bounce_limit,
    soft_bounce_days: organization.soft_bounce_days,
  });
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { errors, clear, set } = useFormErrors(calls.keys.organization());

  const submit = async () => {
    setFormError(null);
    if (!name.trim()) {
      set({ name: [MESSAGES.required] });
      setFormError(t('server.invalidForm'));
      return;
    }
    setSubmitting(true);
    try {
      const saved = await calls.updateOrganization({
        name: name.trim(),
        ...tracking,
        message_retention_days: retention,
        // An emptied field is sent as null: the server answers with the field's message.
        soft_bounce_limit: (softBounces.soft_bounce_limit === '' ? null : softBounces.soft_bounce_limit) as number,
        soft_bounce_days: (softBounces.soft_bounce_days === '' ? null : softBounces.soft_bounce_days) as number,
      });
      onSaved(saved);
      // The header shows the organisation's name from the session's user.
      const user = store.get(currentUserAtom);
      if (user) store.set(currentUserAtom, { ...user, organization: { ...user.organization, name: saved.name } });
      notifySuccess(t('me.organization.saved'));
    } catch (error) {
      setFormError(isApiError(error, 'validation_failed') ? t('server.invalidForm') : translateApiError(t, error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AccountFormCard title={t('account.organization')} testId="organization-form" onSubmit={submit} submitting={submitting} disabled={demo} error={formError}>
      <TextInput
        label={t('me.organization.name')}
        withAsterisk
        maxLength={200}
        value={name}
        disabled={demo}
        error={fieldErrorText(t, errors.name)}
        data-testid="organization-name"
        onChange={(event) => {
          setName(event.currentTarget.value);
          clear('name');
        }}
      />
      <TextInput
        label={t('me.organization.domain')}
        description={t('me.organization.domainHint')}
        value={organization.domain}
        readOnly
        disabled
        data-testid="organization-domain"
      />
      <Stack gap="xs">
        <Text fw={500} size="sm">
          {t('engagement.tracking')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('engagement.defaultsHint')}
        </Text>
        <Switch
          label={t('engagement.trackOpens')}
          description={t('engagement.trackOpensHint')}
          checked={tracking.track_opens}
          disabled={demo}
          data-testid="organization-track-opens"
          onChange={(event) => setTracking({ ...tracking, track_opens: event.currentTarget.checked })}
        />
        <Switch
          label={t('engagement.trackClicks')}
          description={t('engagement.trackClicksHint')}
          checked={tracking.track_clicks}
          disabled={demo}
          data-testid="organization-track-clicks"
          onChange={(event) => setTracking({ ...tracking, track_clicks: event.currentTarget.checked })}
        />
      </Stack>
      <NumberInput
        label={t('retention.days')}
        description={t('retention.daysHint')}
        placeholder={retention === null ? t('retention.daysDefault', { days: organization.effective_retention_days }) : undefined}
        min={RETENTION_DAYS.min}
        max={RETENTION_DAYS.max}
        allowDecimal={false}
        allowNegative={false}
        // Say what is wrong rather than silently change a typed value to the nearest bound.
        clampBehavior="none"
        value={retention ?? ''}
        disabled={demo}
        error={fieldErrorText(t, errors.message_retention_days)}
        data-testid="organization-retention"
        onChange={(value) => {
          setRetention(value === '' ? null : Number(value));
          clear('message_retention_days');
        }}
      />
      <Stack gap={4}>
        <Text fw={500} size="sm">
          {t('engagement.softBounces')}
        </Text>
        <Text size="xs" c="dimmed">
          {t('engagement.softBouncesHint')}
        </Text>
        <FormRow>
          {(['soft_bounce_limit', 'soft_bounce_days'] as const).map((field) => {
            const range = field === 'soft_bounce_limit' ? SOFT_BOUNCE_LIMIT : SOFT_BOUNCE_DAYS;
            return (
              <NumberInput
                key={field}
                label={t(field === 'soft_bounce_limit' ? 'engagement.softBounceLimit' : 'engagement.softBounceDays')}
                min={range.min}
                max={range.max}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                value={softBounces[field]}
                disabled={demo}
                error={fieldErrorText(t, errors[field])}
                data-testid={`organization-${field.replaceAll('_', '-')}`}
                onChange={(value) => {
                  setSoftBounces({ ...softBounces, [field]: value === '' ? '' : Number(value) });
                  clear(field);
                }}
              />
            );
          })}
        </FormRow>
      </Stack>
    </AccountFormCard>
  );
}
