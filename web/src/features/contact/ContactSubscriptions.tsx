import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Subscription } from '@shared/contracts/subscription';
import { useTranslation } from 'react-i18next';
import { LoadState } from '../../components/form/LoadState';
import { useAllRows } from '../../components/list/use-client-list';
import { useContactOptOuts } from '../engagement/api';
import { subscriptionStates } from './contact-view';

const SUBSCRIPTION_ORDER = { sort_by: 'priority', sort_order: 'asc' };

/** Each of the organisation's subscriptions with whether this contact gets it (the reasons are in the opt-outs panel). */
export function ContactSubscriptions({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const subscriptions = useAllRows<Subscription>('/subscription', SUBSCRIPTION_ORDER);
  // The same request (and cache entry) as the opt-outs and bounces panels.
  const optOuts = useContactOptOuts(contactId);
  return (
    <Paper withBorder p="md" data-testid="contact-subscriptions">
      <Title order={4} mb="sm">
        {t('contacts.view.subscriptions')}
      </Title>
      <LoadState error={subscriptions.error ?? optOuts.error} loading={!subscriptions.data || !optOuts.data}>
        {() => {
          const states = subscriptionStates(subscriptions.data!, optOuts.data!.data.unsubscribes);
          if (!states.length)
            return (
              <Text size="sm" c="dimmed">
                {t('contacts.view.noSubscriptions')}
              </Text>
            );
          return (
            <Stack gap={6}>
              {states.map((state) => (
                <Group key={state.id} justify="space-between" wrap="nowrap" data-testid="contact-subscription" data-subscribed={String(state.subscribed)}>
                  <Text size="sm" style={{ wordBreak: 'break-word' }}>
                    {state.name}
                  </Text>
                  <Badge color={state.subscribed ? 'green' : 'gray'} variant="light" tt="none" style={{ flexShrink: 0 }}>
                    {t(state.subscribed ? 'contacts.view.subscribed' : 'contacts.view.unsubscribed')}
                  </Badge>
                </Group>
              ))}
            </Stack>
          );
        }}
      </LoadState>
    </Paper>
  );
}
