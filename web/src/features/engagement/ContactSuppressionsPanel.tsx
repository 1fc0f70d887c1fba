import { Anchor, Box, Button, Paper, Stack, Text, Title } from '@mantine/core';
import type { ContactSuppression } from '@shared/contracts/unsubscribe';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { DateTime } from '../../components/common/DateTime';
import { SuppressionBadge } from '../../components/common/SuppressionBadge';
import { LoadState } from '../../components/form/LoadState';
import { pathOf } from '../../lib/route-table';
import { useRouteTable, useServices } from '../../lib/services-context';
import { liftSuppression, useContactOptOuts } from './api';
import { useConfirmedCall } from './use-confirmed-call';

/**
 * On a contact's page, under "Bounces and complaints" (the README's name for it): the contact's addresses nothing is
 * sent to (a bounce, a spam complaint, the blacklist), each with why, and Lift to take one off.
 */
export function ContactSuppressionsPanel({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const { client } = useServices();
  const { data, error, isLoading, mutate } = useContactOptOuts(contactId);
  const confirmThen = useConfirmedCall(mutate);
  const lift = (entry: ContactSuppression) =>
    confirmThen(
      { title: 'engagement.liftTitle', confirm: 'engagement.liftConfirm', action: 'engagement.lift', done: 'engagement.lifted' },
      { address: entry.value },
      () => liftSuppression(client, contactId, entry.id),
    );
  return (
    <Paper withBorder p="md" data-testid="contact-bounces">
      <Title order={4} mb="sm">
        {t('engagement.bouncesAndComplaints')}
      </Title>
      <LoadState error={error} loading={isLoading}>
        {() => {
          const { suppressions } = data!.data;
          if (!suppressions.length)
            return (
              <Text size="sm" c="dimmed" data-testid="contact-no-suppressions">
                {t('engagement.noSuppressions')}
              </Text>
            );
          return <SuppressionsList entries={suppressions} onLift={lift} />;
        }}
      </LoadState>
    </Paper>
  );
}

/** The contact's suppressed addresses: why (the platform's reason and the message that did it, or a person's note), since when. */
function SuppressionsList({ entries, onLift }: { entries: ContactSuppression[]; onLift: (entry: ContactSuppression) => void }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  return (
    <div data-testid="contact-suppressions">
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
