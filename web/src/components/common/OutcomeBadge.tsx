import { Badge } from '@mantine/core';
import { messageOutcome, type DeliveryStatus, type MessageOutcome } from '@shared/contracts/message';
import { useTranslation } from 'react-i18next';

/** Each outcome its own colour: a bounce, a spam report and an undelivered SMS never look like a green "Sent". */
const OUTCOME_COLOR: Record<MessageOutcome, string> = {
  queued: 'cyan',
  sent: 'green',
  failed: 'red',
  skipped: 'gray',
  bounced: 'orange',
  complained: 'grape',
  undelivered: 'pink',
};

/** What a message row carries: its outcome (an older answer without one is read from its status and report). */
export interface OutcomeOf {
  status: string;
  outcome?: MessageOutcome;
  delivery_status: DeliveryStatus | null;
}

/** The outcome a person reads from a message or recipient row (src/shared/contracts/message.ts's rule). */
export function outcomeOf(row: OutcomeOf): MessageOutcome {
  return row.outcome ?? messageOutcome(row.status, row.delivery_status);
}

/** A message's status chip, as a person reads it: Sent, or Bounced, Reported as spam, Undelivered when the report says so. */
export function OutcomeBadge({ row }: { row: OutcomeOf }) {
  const { t } = useTranslation();
  const outcome = outcomeOf(row);
  return (
    <Badge color={OUTCOME_COLOR[outcome]} variant="light" data-testid="message-status" data-status={outcome}>
      {t(`messages.statuses.${outcome}`)}
    </Badge>
  );
}
