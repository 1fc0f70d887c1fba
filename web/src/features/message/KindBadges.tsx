import { Badge, Group } from '@mantine/core';
import { messageKind, type MessageKind } from '@shared/contracts/message';
import { useTranslation } from 'react-i18next';

/** Broadcast messages are the usual rows and carry no badge; the others say where they came from. */
const KIND_COLOR: Record<Exclude<MessageKind, 'broadcast'>, string> = { transactional: 'indigo', test: 'gray' };

/** What a message row carries to tell its kind (an older answer without `kind` is read from its broadcast and test flag). */
export interface KindOf {
  kind?: MessageKind;
  broadcast_id: number | null;
  is_test: boolean;
  sandbox?: boolean;
}

/** A message's kind by the contract's one rule (src/shared/contracts/message.ts's messageKind). */
export function kindOf(row: KindOf): MessageKind {
  return row.kind ?? messageKind({ broadcastId: row.broadcast_id ?? null, isTest: Boolean(row.is_test) });
}

/**
 * A message row's origin at a glance: "Transactional" (POST /send) or "Test" (sent from the console), and "Sandbox"
 * for one sent with a test key (recorded as sent, never delivered). Nothing for a broadcast's message.
 */
export function KindBadges({ row }: { row: KindOf }) {
  const { t } = useTranslation();
  const found = kindOf(row);
  const kind = found === 'broadcast' ? null : found;
  if (!kind && !row.sandbox) return null;
  return (
    <Group gap={4} display="inline-flex" ml={6} wrap="nowrap" style={{ verticalAlign: 'middle' }}>
      {kind && (
        <Badge size="xs" variant="light" color={KIND_COLOR[kind]} data-testid="message-kind-badge" data-kind={kind}>
          {t(`messages.kinds.${kind}`)}
        </Badge>
      )}
      {row.sandbox && (
        <Badge size="xs" variant="outline" color="yellow" data-testid="message-sandbox-badge">
          {t('messages.sandbox')}
        </Badge>
      )}
    </Group>
  );
}
