import { Alert, Anchor, Paper, Table, Title } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import type { Message } from '@shared/contracts/message';
import type { Subscription } from '@shared/contracts/subscription';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { useAllRows } from '../../components/list/use-client-list';
import { useApiKeyName } from './api';

// What a message sent through POST /send carries beyond the base info: the key that sent it, how it went out (cc,
// bcc, reply-to, category), its metadata, and whether it was only recorded (a test key's sandbox). Each part is shown
// only when the message has it.

/** Long addresses and metadata values break anywhere rather than widen the page past a phone's 390 px. */
const WRAP = { overflowWrap: 'anywhere' } as const;

/** The key's name, or "Key #<id>" while the organisation's key list is loading or cannot be read. */
function ApiKeyName({ id }: { id: number }) {
  const { t } = useTranslation();
  const name = useApiKeyName(id);
  return <span data-testid="message-api-key">{name ?? t('messages.apiKeyFallback', { id })}</span>;
}

/** The category (subscription) by name, linked to it; "#<id>" when it is gone. */
function CategoryName({ id }: { id: number }) {
  const table = useRouteTable();
  const { data: subscriptions } = useAllRows<Subscription>('/subscription');
  const name = subscriptions?.find((s) => s.id === id)?.name ?? `#${id}`;
  const href = pathOf(table, 'subscription_update', { id });
  return (
    <span data-testid="message-category">
      {href ? (
        <Link href={href} asChild>
          <Anchor href={href} inherit>
            {name}
          </Anchor>
        </Link>
      ) : (
        name
      )}
    </span>
  );
}

/** A test key's message: recorded as sent, never delivered. */
export function SandboxNotice({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (!message.sandbox) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconFlask size={18} />} title={t('messages.sandbox')} data-testid="message-sandbox">
      {t('messages.sandboxNotice')}
    </Alert>
  );
}

/**
 * The key that sent the message and how it went out: only the rows the message has; nothing when it has none (an
 * older answer without these fields included).
 */
export function SendDetails({ message: m }: { message: Message }) {
  const { t } = useTranslation();
  const rows: [string, ReactNode][] = [];
  if (m.api_key_id) rows.push(['messages.fields.api_key', <ApiKeyName id={m.api_key_id} />]);
  if (m.subscription_id) rows.push(['messages.fields.category', <CategoryName id={m.subscription_id} />]);
  if (m.cc?.length) rows.push(['messages.fields.cc', m.cc.join(', ')]);
  if (m.bcc?.length) rows.push(['messages.fields.bcc', m.bcc.join(', ')]);
  if (m.reply_to) rows.push(['messages.fields.reply_to', m.reply_to]);
  if (rows.length === 0) return null;
  return (
    <Paper withBorder p="md" data-testid="message-send-details">
      <Title order={4} mb="xs">
        {t('messages.sendDetails')}
      </Title>
      <Table>
        <Table.Tbody>
          {rows.map(([key, value]) => (
            <Table.Tr key={key} data-testid={`send-detail-${key.split('.').at(-1)}`}>
              <Table.Th w={{ base: 110, sm: 220 }}>{t(key)}</Table.Th>
              <Table.Td style={WRAP}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The caller's metadata as a key/value table, in the order it was given; nothing when there is none. */
export function MetadataTable({ message }: { message: Message }) {
  const { t } = useTranslation();
  const entries = Object.entries(message.metadata ?? {});
  if (entries.length === 0) return null;
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="xs">
        {t('messages.fields.metadata')}
      </Title>
      <Table data-testid="message-metadata" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="40%">{t('messages.metadataKey')}</Table.Th>
            <Table.Th>{t('messages.metadataValue')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map(([key, value]) => (
            <Table.Tr key={key} data-testid="message-metadata-row">
              <Table.Td ff="monospace" style={WRAP}>
                {key}
              </Table.Td>
              <Table.Td style={WRAP}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
