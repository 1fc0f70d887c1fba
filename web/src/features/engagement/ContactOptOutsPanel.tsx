import { Box, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ContactUnsubscribe } from '@shared/contracts/unsubscribe';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { DateTime } from '../../components/common/DateTime';
import { LoadState } from '../../components/form/LoadState';
import { resubscribeContact, useContactOptOuts } from './api';
import { reasonText } from './labels';
import { useConfirmedCall } from './use-confirmed-call';

/**
 * On a contact's page: the categories they left (with why) and numbers that replied STOP; re-subscribe. Its
 * suppressed addresses are ContactSuppressionsPanel's ("Bounces and complaints"). `onResubscribed`: the page
 * refreshes what else shows the contact's standing.
 */
export function ContactOptOutsPanel({ contactId, onResubscribed }: { contactId: number; onResubscribed?: () => void }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const { data, error, isLoading, mutate } = useContactOptOuts(contactId);
  const confirmThen = useConfirmedCall(() => {
    onResubscribed?.();
    return mutate();
  });

  const resubscribe = (u: ContactUnsubscribe) =>
    confirmThen(
      { title: 'engagement.resubscribeTitle', confirm: 'engagement.resubscribeConfirm', action: 'engagement.resubscribe', done: 'engagement.resubscribed' },
      { name: u.subscription_name },
      () => resubscribeContact(client, contactId, u.subscription_id),
    );

  return (
    <Paper withBorder p="md" data-testid="contact-opt-outs">
      <Title order={4} mb="sm">
        {t('engagement.optOuts')}
      </Title>
      <LoadState error={error} loading={isLoading}>
        {() => {
          const { unsubscribes, sms_opt_outs } = data!.data;
          if (!unsubscribes.length && !sms_opt_outs.length) return <Text c="dimmed">{t('engagement.noOptOuts')}</Text>;
          return (
            <Stack>
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
