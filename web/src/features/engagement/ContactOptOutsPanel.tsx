import { Anchor, Box, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ContactSuppression, ContactUnsubscribe } from '@shared/contracts/unsubscribe';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useTranslation } from 'react-i18next';
import { useRouteTable, useServices } from '../../lib/services-context';
import { confirmDelete } from '../../components/common/confirm';
import { DateTime } from '../../components/common/DateTime';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { LoadState } from '../../components/form/LoadState';
import { translateApiError } from '../../lib/server-messages';
import { liftSuppression, resubscribeContact, useContactOptOuts } from './api';
import { SuppressionBadge } from '../../components/common/SuppressionBadge';
import { reasonText } from './labels';

/**
 * On a contact's page: the categories they left (with why), numbers that replied STOP, and addresses nothing is sent
 * to (a bounce, a spam complaint, the blacklist); re-subscribe, lift a suppression.
 */
export function ContactOptOutsPanel({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const { data, error, isLoading, mutate } = useContactOptOuts(contactId);

  /** Asks first (`<key>Title`, `<key>Confirm`, the `<action>` button), then calls, says so, and reloads the panel. */
  const confirmThen = (keys: { title: string; confirm: string; action: string; done: string }, values: Record<string, string>, call: () => Promise<unknown>) =>
    confirmDelete({
      title: t(keys.title),
      message: t(keys.confirm, values),
      confirmLabel: t(keys.action),
      cancelLabel: t('common.cancel'),
      onConfirm: () =>
        void call().then(
          () => {
            notifySuccess(t(keys.done, values));
            void mutate();
          },
          (e) => notifyError(translateApiError(t, e)),
        ),
    });

  const resubscribe = (u: ContactUnsubscribe) =>
    confirmThen(
      { title: 'engagement.resubscribeTitle', confirm: 'engagement.resubscribeConfirm', action: 'engagement.resubscribe', done: 'engagement.resubscribed' },
      { name: u.subscription_name },
      () => resubscribeContact(client, contactId, u.subscription_id),
    );

  const lift = (entry: ContactSuppression) =>
    confirmThen(
      { title: 'engagement.liftTitle', confirm: 'engagement.liftConfirm', action: 'engagement.lift', done: 'engagement.lifted' },
      { address: entry.value },
      () => liftSuppression(client, contactId, entry.id),
    );

  return (
    <Paper withBorder p="md" maw={760} mt="md" data-testid="contact-opt-outs">
      <Title order={4} mb="sm">
        {t('engagement.optOuts')}
      </Title>
      <LoadState error={error} loading={isLoading}>
        {() => {
          const { unsubscribes, sms_opt_outs, suppressions } = data!.data;
          if (!unsubscribes.length && !sms_opt_outs.length && !suppressions.length) return <Text c="dimmed">{t('engagement.noOptOuts')}</Text>;
          return (
            <Stack>
              {suppressions.length > 0 && <SuppressionsTable entries={suppressions} onLift={lift} />}
              {unsubscribes.length > 0 && (
                <Table.ScrollContainer minWidth={560}>
                  <Table>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('engagement.columns.category')}</Table.Th>
                        <Table.Th>{t('engagement.columns.reason_given')}</Table.Th>
                        <Table.Th>{t('engagement.columns.source')}</Table.Th>
                        <Table.Th>{t('engagement.columns.when')}</Table.Th>
                        <Table.Th visibleFrom="sm" />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {unsubscribes.map((u) => (
                        <Table.Tr key={u.subscription_id} data-testid="contact-unsubscribe">
                          <Table.Td>
                            {u.subscription_name}
                            {/* On a phone the table scrolls sideways: the action rides with the category, in view. */}
                            <Box hiddenFrom="sm" mt={4}>
                              <Button size="xs" variant="light" onClick={() => resubscribe(u)} data-testid="contact-resubscribe-phone">
                                {t('engagement.resubscribe')}
                              </Button>
                            </Box>
                          </Table.Td>
                          <Table.Td>
                            {reasonText(t, u.reason)}
                            {u.comment && (
                              <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                                “{u.comment}”
                              </Text>
                            )}
                          </Table.Td>
                          <Table.Td>{u.source ? t(`engagement.sources.${u.source}`) : '—'}</Table.Td>
                          <Table.Td>
                            <DateTime value={u.created_at} />
                          </Table.Td>
                          <Table.Td visibleFrom="sm">
                            <Button size="xs" variant="light" onClick={() => resubscribe(u)} data-testid="contact-resubscribe">
                              {t('engagement.resubscribe')}
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
              {sms_opt_outs.length > 0 && (
                <div data-testid="contact-sms-opt-outs">
                  <Text fw={600} size="sm">
                    {t('engagement.smsOptOuts')}
                  </Text>
                  <Table>
                    <Table.Tbody>
                      {sms_opt_outs.map((s) => (
                        <Table.Tr key={s.phone}>
                          <Table.Td>{s.phone}</Table.Td>
                          <Table.Td>{s.keyword}</Table.Td>
                          <Table.Td>
                            <DateTime value={s.created_at} />
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                  <Text size="xs" c="dimmed">
                    {t('engagement.smsOptOutHint')}
                  </Text>
                </div>
              )}
            </Stack>
          );
        }}
      </LoadState>
    </Paper>
  );
}

/** The contact's suppressed addresses: why (the platform's reason and the message that did it, or a person's note), since when. */
function SuppressionsTable({ entries, onLift }: { entries: ContactSuppression[]; onLift: (entry: ContactSuppression) => void }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  return (
    <div data-testid="contact-suppressions">
      <Text fw={600} size="sm">
        {t('engagement.suppressions')}
      </Text>
      <Text size="xs" c="dimmed" mb={4}>
        {t('engagement.suppressionsHint')}
      </Text>
      <Stack gap="xs">
        {entries.map((entry) => {
          const href = entry.message_id ? pathOf(table, 'message_view', { id: entry.message_id }) : null;
          return (
            <Paper key={entry.id} withBorder p="xs" data-testid="contact-suppression" data-address={entry.value}>
              {/* One block per address (not a table): the address and its reason stay whole on a phone. */}
              <Box style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', justifyContent: 'space-between' }}>
                <Box style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                    {entry.value}
                  </Text>
                  <Box style={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}>
                    {entry.reason ? <SuppressionBadge reason={entry.reason} /> : <Text size="xs">{t('engagement.suppressionReasons.manual')}</Text>}
                    <Text size="xs" c="dimmed">
                      <DateTime value={entry.created_at} />
                    </Text>
                    {href && (
                      <Link href={href} asChild>
                        <Anchor href={href} size="xs" data-testid="contact-suppression-message">
                          {t('engagement.suppressionMessage', { id: entry.message_id })}
                        </Anchor>
                      </Link>
                    )}
                  </Box>
                  {/* A person's note; the platform's own entry says it in the badge and the message (its info is for the API). */}
                  {entry.info && !entry.reason && (
                    <Text size="xs" c="dimmed" style={{ wordBreak: 'break-word' }}>
                      {entry.info}
                    </Text>
                  )}
                </Box>
                <Button size="xs" variant="light" onClick={() => onLift(entry)} data-testid="contact-suppression-lift">
                  {t('engagement.lift')}
                </Button>
              </Box>
            </Paper>
          );
        })}
      </Stack>
    </div>
  );
}
