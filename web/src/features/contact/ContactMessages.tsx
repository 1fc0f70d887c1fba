import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { MessageListItem } from '@shared/contracts/message';
import type { ListResponse } from '@shared/list';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { Link } from 'wouter';
import { DateTime } from '../../components/common/DateTime';
import { OutcomeBadge } from '../../components/common/OutcomeBadge';
import { LoadState } from '../../components/form/LoadState';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { CONTACT_MESSAGES_READ, CONTACT_MESSAGES_SHOWN, contactEngagement, type ContactEngagement } from './contact-view';

/** The contact's latest messages (GET /message?contact_id=), newest first. */
function useContactMessages(contactId: number) {
  return useSWR<ListResponse<MessageListItem>>(['/message', { contact_id: contactId, page_size: CONTACT_MESSAGES_READ }]);
}

/** One figure of the engagement block: how many messages, and how many of them a person (not a machine) did it on. */
function Figure({ labelKey, value, people, testId }: { labelKey: string; value: number; people?: number; testId: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid={testId} data-value={value}>
      <Text size="xs" c="dimmed">
        {t(labelKey)}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
      {people !== undefined && (
        <Text size="xs" c="dimmed" data-people={people}>
          {t('contacts.view.byPeople', { n: people })}
        </Text>
      )}
    </div>
  );
}

/** Opened and clicked over the contact's latest messages, people beside all (the engagement tab's rule). */
function EngagementFigures({ engagement, total }: { engagement: ContactEngagement; total: number }) {
  const { t } = useTranslation();
  return (
    <div data-testid="contact-engagement">
      <Title order={5} mb={4}>
        {t('contacts.view.engagement')}
      </Title>
      <SimpleGrid cols={3} spacing="sm">
        <Figure labelKey="contacts.view.messagesCount" value={engagement.messages} testId="contact-engagement-messages" />
        <Figure labelKey="contacts.view.opened" value={engagement.opened} people={engagement.openedByPeople} testId="contact-engagement-opened" />
        <Figure labelKey="contacts.view.clicked" value={engagement.clicked} people={engagement.clickedByPeople} testId="contact-engagement-clicked" />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt={4}>
        {t('contacts.view.engagementHint')}
        {total > engagement.messages && ` ${t('contacts.view.engagementOfLatest', { n: engagement.messages })}`}
      </Text>
    </div>
  );
}

/** One message in a line that wraps on a phone: where it went, its subject, its status (or delivery report) and when. */
function MessageLine({ message }: { message: MessageListItem }) {
  const { t } = useTranslation();
  const href = pathOf(useRouteTable(), 'message_view', { id: message.id });
  return (
    <Paper withBorder p="xs" data-testid="contact-message" data-id={message.id}>
      <Group justify="space-between" gap={6} wrap="wrap">
        <div style={{ minWidth: 0 }}>
          {href ? (
            <Link href={href} asChild>
              <Anchor href={href} size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                {message.subject || message.to_address}
              </Anchor>
            </Link>
          ) : (
            <Text size="sm">{message.subject || message.to_address}</Text>
          )}
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {message.to_address} · <DateTime value={message.sent_at ?? message.created_at} />
          </Text>
        </div>
        <Group gap={4} wrap="wrap">
          {message.is_test && (
            <Badge variant="outline" color="gray" size="sm" tt="none">
              {t('contacts.view.test')}
            </Badge>
          )}
          <OutcomeBadge row={message} />
        </Group>
      </Group>
    </Paper>
  );
}

/** The contact's messages (the latest few, each opening its page) and its engagement over them. */
export function ContactMessages({ contactId }: { contactId: number }) {
  const { t } = useTranslation();
  const { data, error, isLoading } = useContactMessages(contactId);
  return (
    <Paper withBorder p="md" data-testid="contact-messages">
      <Title order={4} mb="sm">
        {t('contacts.view.messages')}
      </Title>
      <LoadState error={error} loading={isLoading || !data}>
        {() => {
          const items = data!.items;
          if (!items.length)
            return (
              <Text size="sm" c="dimmed" data-testid="contact-no-messages">
                {t('contacts.view.noMessages')}
              </Text>
            );
          const shown = items.slice(0, CONTACT_MESSAGES_SHOWN);
          return (
            <Stack gap="sm">
              <EngagementFigures engagement={contactEngagement(items)} total={data!.meta.total} />
              <Stack gap={6}>
                {shown.map((message) => (
                  <MessageLine key={message.id} message={message} />
                ))}
              </Stack>
              {data!.meta.total > shown.length && (
                <Text size="xs" c="dimmed" data-testid="contact-messages-more">
                  {t('contacts.view.latestOf', { shown: shown.length, total: data!.meta.total })}
                </Text>
              )}
            </Stack>
          );
        }}
      </LoadState>
    </Paper>
  );
}
