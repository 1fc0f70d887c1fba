import { Anchor, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { Message } from '@shared/contracts/message';
import type { ItemBody } from '@shared/errors';
import type { ReactNode } from 'react';
import useSWR from 'swr';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import type { PageProps } from '../../lib/route-table';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { confirmDelete } from '../../components/common/confirm';
import { DateTime } from '../../components/common/DateTime';
import { OutcomeBadge } from '../../components/common/OutcomeBadge';
import { DetailTabs } from '../../components/common/DetailTabs';
import { SandboxedHtml } from '../../components/common/SandboxedHtml';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { DeliveryBadge } from '../engagement/labels';
import { MessageEngagementTab } from '../engagement/MessageEngagementTab';
import { useMessage, useMessageCalls } from './api';
import { kindOf } from './KindBadges';
import { MetadataTable, SandboxNotice, SendDetails } from './TransactionalDetails';

/** The "content" tab: html in a sandboxed frame (no script runs, no same origin), text and SMS as text. */
export function MessageContent({ message }: { message: Message }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md">
      {message.subject && (
        <Text fw={600} mb="sm" data-testid="message-subject">
          {message.subject}
        </Text>
      )}
      {message.html ? (
        <SandboxedHtml title={t('messages.contentFrame')} html={message.body} testId="message-body-html" />
      ) : (
        <Code block data-testid="message-body-text">
          {message.body}
        </Code>
      )}
      {message.html && message.body_plain && (
        <Code block mt="sm" data-testid="message-body-plain">
          {message.body_plain}
        </Code>
      )}
    </Paper>
  );
}

/** The name of what an id points at (a broadcast, a contact), read once; null while unknown or when it is gone. */
function useNameOf(path: string | null): string | null {
  const { data } = useSWR<ItemBody<{ name: string }>>(path ? [path] : null, { shouldRetryOnError: false });
  return data?.data.name ?? null;
}

/** A time, or a dash like the other empty rows (a message not sent yet, never clicked). */
const when = (value: string | null) => (value ? <DateTime value={value} /> : '—');

function BaseInfo({ message: m }: { message: Message }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const broadcastName = useNameOf(m.broadcast_id ? `/broadcast/${m.broadcast_id}` : null);
  const contactName = useNameOf(m.contact_id ? `/contact/${m.contact_id}` : null);
  const link = (route: string, id: number | null, text: string) => {
    const href = id ? pathOf(table, route, { id }) : null;
    return href ? (
      <Link href={href} asChild>
        <Anchor href={href} inherit>
          {text}
        </Anchor>
      </Link>
    ) : (
      '—'
    );
  };
  const rows: [string, ReactNode][] = [
    ['messages.fields.type', t(`messages.types.${m.type}`)],
    ['messages.fields.kind', <span data-testid="message-kind">{t(`messages.kinds.${kindOf(m)}`)}</span>],
    ['messages.fields.status', <OutcomeBadge row={m} />],
    // A message held for later (POST /send's send_at) says when it goes.
    ...(m.delayed_at && Date.parse(m.delayed_at) > Date.now()
      ? ([['messages.fields.delayed_at', <DateTime value={m.delayed_at} />]] as [string, ReactNode][])
      : []),
    ['messages.fields.from', m.from_name ? `${m.from_name} <${m.from_address}>` : m.from_address],
    ['messages.fields.to_address', m.to_address || '—'],
    ['messages.fields.subject', m.subject ?? '—'],
    ['messages.fields.sent_at', when(m.sent_at)],
    ['messages.fields.external_id', m.external_id ?? '—'],
    ['messages.fields.error', m.error ? translateServerMessage(t, m.error) : '—'],
    ['messages.fields.attempts', String(m.attempts)],
    ...(m.type === 'sms'
      ? ([['engagement.delivery', <DeliveryBadge status={m.delivery_status} errorCode={m.delivery_error_code} />]] as [string, ReactNode][])
      : ([
          // An email's delivery report is what came back to its bounce address (a bounce, a spam complaint), if anything.
          ...(m.delivery_status ? [['engagement.delivery', <DeliveryBadge status={m.delivery_status} errorCode={m.delivery_error_code} />]] : []),
          ['messages.fields.opens', `${m.opens_total} / ${m.opens_unique}`],
          ['messages.fields.clicks', `${m.clicks_total} / ${m.clicks_unique}`],
          ['messages.fields.clicked_at', when(m.clicked_at)],
        ] as [string, ReactNode][])),
    ['messages.fields.broadcast', link('broadcast_view', m.broadcast_id, broadcastName ?? `#${m.broadcast_id}`)],
    ['messages.fields.contact', link('contact_view', m.contact_id, contactName ?? `#${m.contact_id}`)],
    ['list.columns.created_at', <DateTime value={m.created_at} />],
  ];
  return (
    <Paper withBorder p="md" data-testid="message-base-info">
      <Table>
        <Table.Tbody>
          {rows.map(([key, value]) => (
            <Table.Tr key={key}>
              <Table.Th w={{ base: 110, sm: 220 }}>{t(key)}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The "base info" tab: a sandbox's notice first, the base info, then what a transactional message carries. */
function BaseTab({ message }: { message: Message }) {
  return (
    <Stack gap="md">
      <SandboxNotice message={message} />
      <BaseInfo message={message} />
      <SendDetails message={message} />
      <MetadataTable message={message} />
    </Stack>
  );
}

/** /message/view/:id: tabs "base info", "content" and "engagement"; delete after a confirmation. No create or edit. */
export function MessageViewPage({ params }: PageProps) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const [, navigate] = useLocation();
  const calls = useMessageCalls();
  const id = Number(params.id) || null;
  const { data, error, isLoading } = useMessage(id);
  const message = data?.data ?? null;
  const remove = () =>
    confirmDelete({
      title: t('list.deleteOneTitle'),
      message: t('messages.deleteConfirm'),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: () =>
        void calls.remove(id!).then(
          () => {
            notifySuccess(t('list.deletedOne'));
            navigate(pathOf(table, 'message_list') ?? '/');
          },
          (e) => notifyError(translateApiError(t, e)),
        ),
    });
  return (
    <>
      <PageBreadcrumbs section="messages" current={{ labelKey: 'messages.view', text: message ? `#${message.id}` : undefined }} />
      <LoadState error={error} loading={isLoading || !message}>
        {() => (
          <>
            <Group justify="space-between" mb="md">
              <Title order={2}>{message!.subject || message!.to_address || `#${message!.id}`}</Title>
              <Button color="red" variant="light" size="xs" onClick={remove} data-testid="message-delete">
                {t('common.delete')}
              </Button>
            </Group>
            <DetailTabs
              tabs={[
                { value: 'base', labelKey: 'messages.tabs.base', content: () => <BaseTab message={message!} /> },
                { value: 'content', labelKey: 'messages.tabs.content', content: () => <MessageContent message={message!} /> },
                { value: 'engagement', labelKey: 'engagement.title', content: () => <MessageEngagementTab message={message!} /> },
              ]}
            />
          </>
        )}
      </LoadState>
    </>
  );
}
