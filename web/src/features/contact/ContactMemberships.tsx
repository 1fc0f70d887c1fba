import { Alert, Badge, Box, Divider, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import type { ContactMemberships as Memberships } from '@shared/contracts/membership';
import type { Subscription } from '@shared/contracts/subscription';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/common/confirm';
import { DateTime, formatDateTime } from '../../components/common/DateTime';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { LoadState } from '../../components/form/LoadState';
import { useAllRows } from '../../components/list/use-client-list';
import { translateApiError } from '../../lib/server-messages';
import { useServices } from '../../lib/services-context';
import { useContactOptOuts } from '../engagement/api';
import { ContactConsents } from './ContactConsents';
import { isHeld, receives, subscriptionStandings, type Standing, type SubscriptionStanding } from './membership-standing';
import { putContactMembership, useContactMemberships } from './memberships-api';

const SUBSCRIPTION_ORDER = { sort_by: 'priority', sort_order: 'asc' };
const STANDING_COLORS: Record<Standing, string> = { confirmed: 'green', implied: 'teal', pending: 'yellow', unsubscribed: 'gray', none: 'gray' };

/**
 * The contact's "Subscriptions" card (issue 39): each subscription of the organisation with the contact's standing,
 * where it came from and when, a switch to confirm or unsubscribe, and the consent each form sign-up gave.
 */
export function ContactMemberships({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const subscriptions = useAllRows<Subscription>('/subscription', SUBSCRIPTION_ORDER);
  const memberships = useContactMemberships(contactId);
  return (
    <Paper withBorder p="md" data-testid="contact-subscriptions">
      <Title order={4} mb="sm">
        {t('contacts.view.subscriptions')}
      </Title>
      <LoadState error={subscriptions.error ?? memberships.error} loading={!subscriptions.data || !memberships.data}>
        {() => <MembershipsBody contactId={contactId} subscriptions={subscriptions.data!} data={memberships.data!.data} />}
      </LoadState>
    </Paper>
  );
}

function MembershipsBody({ contactId, subscriptions, data }: { contactId: number; subscriptions: Subscription[]; data: Memberships }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const { mutate } = useContactMemberships(contactId);
  // The unsubscribes mirror the memberships: the opt-outs panel reads them and is refreshed after each change.
  const optOuts = useContactOptOuts(contactId);
  const [saving, setSaving] = useState<number | null>(null);
  const standings = subscriptionStandings(subscriptions, data);

  const save = async (row: SubscriptionStanding, status: 'confirmed' | 'unsubscribed') => {
    setSaving(row.id);
    try {
      const answer = await putContactMembership(client, contactId, { subscription_id: row.id, status });
      await mutate({ data: answer }, { revalidate: false });
      void optOuts.mutate();
      notifySuccess(t(status === 'confirmed' ? 'memberships.confirmed' : 'memberships.unsubscribedDone', { name: row.name }));
    } catch (error) {
      notifyError(translateApiError(t, error));
    } finally {
      setSaving(null);
    }
  };

  /** Turning a subscription on for someone who did not ask for it here asks first: a pending sign-up, or one they left. */
  const toggle = (row: SubscriptionStanding) => {
    if (receives(row.standing)) return void save(row, 'unsubscribed');
    const ask = row.standing === 'pending' ? 'Pending' : row.leftByPerson ? 'Left' : null;
    if (!ask) return void save(row, 'confirmed');
    confirmAction({
      title: t(`memberships.confirm${ask}Title`),
      message: t(`memberships.confirm${ask}`, { name: row.name }),
      confirmLabel: t('memberships.confirmAction'),
      cancelLabel: t('common.cancel'),
      onConfirm: () => void save(row, 'confirmed'),
    });
  };

  return (
    <Stack gap="sm">
      {isHeld(data) && (
        <Alert color="yellow" icon={<IconAlertTriangle size={18} />} data-testid="contact-held">
          {t('memberships.held')}
        </Alert>
      )}
      {standings.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('contacts.view.noSubscriptions')}
        </Text>
      ) : (
        <Stack gap="xs">
          {standings.map((row) => (
            <StandingRow key={row.id} row={row} busy={saving !== null} onToggle={() => toggle(row)} />
          ))}
        </Stack>
      )}
      <Divider />
      <ContactConsents consents={data.consents} subscriptions={standings} />
    </Stack>
  );
}

/** One subscription: its name, the standing, the source in words and when it changed; the switch on the right. */
function StandingRow({ row, busy, onToggle }: { row: SubscriptionStanding; busy: boolean; onToggle: () => void }) {
  const { t, i18n } = useTranslation();
  const badge =
    row.standing === 'pending' && row.pendingUntil
      ? t('memberships.standing.pendingUntil', { date: formatDateTime(row.pendingUntil, i18n.language) })
      : t(`memberships.standing.${row.standing}`);
  return (
    <Box
      data-testid="contact-subscription"
      data-standing={row.standing}
      style={{ display: 'flex', gap: 8, alignItems: 'flex-start', justifyContent: 'space-between' }}
    >
      <Box style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
          {row.name}
        </Text>
        {/* The badge wraps: "Member (added by the organisation)" must stay whole on a phone. */}
        <Badge
          color={STANDING_COLORS[row.standing]}
          variant="light"
          tt="none"
          h="auto"
          py={2}
          style={{ whiteSpace: 'normal' }}
          data-testid="subscription-standing"
        >
          {badge}
        </Badge>
        {(row.source || row.changedAt) && (
          <Text size="xs" c="dimmed" data-testid="subscription-source">
            {row.source && t(`memberships.sources.${row.source}`)}
            {row.source && row.changedAt && ' · '}
            {row.changedAt && <DateTime value={row.changedAt} />}
          </Text>
        )}
      </Box>
      <Switch
        checked={receives(row.standing)}
        disabled={busy}
        onChange={onToggle}
        aria-label={t('memberships.receives', { name: row.name })}
        data-testid="subscription-switch"
        style={{ flexShrink: 0 }}
        mt={2}
      />
    </Box>
  );
}
