import type { messages } from '../../db/schema';
import {
  messageKind,
  messageOutcome,
  type DeliveryStatus,
  type Message,
  type MessageListItem,
  type MessageStatus,
  type MessageType,
} from '../../shared/contracts/message';
import type { MessageContent } from './content';

type Row = typeof messages.$inferSelect;

/**
 * A message row in the API shape; `sending` (claimed by a consumer) reads as queued, and the outcome is what a person
 * reads (a bounce, a spam report, an undelivered SMS over "sent"). Lists leave the content out.
 */
export function presentMessage(row: Row, content: MessageContent): Message;
export function presentMessage(row: Row, content: MessageContent | null): Message | MessageListItem;
export function presentMessage(row: Row, content: MessageContent | null): Message | MessageListItem {
  const item: MessageListItem = {
    id: row.id,
    type: row.type as MessageType,
    status: (row.status === 'sending' ? 'queued' : row.status) as MessageStatus,
    outcome: messageOutcome(row.status, row.deliveryStatus),
    is_test: row.isTest,
    kind: messageKind(row),
    metadata: row.metadata ?? null,
    api_key_id: row.apiKeyId,
    cc: row.sendOptions?.cc ?? [],
    bcc: row.sendOptions?.bcc ?? [],
    reply_to: row.sendOptions?.replyTo ?? null,
    subscription_id: row.sendOptions?.subscriptionId ?? null,
    sandbox: row.sendOptions?.sandbox ?? false,
    sender_id: row.senderId,
    template_id: row.templateId,
    contact_id: row.contactId,
    broadcast_id: row.broadcastId,
    from_address: row.fromAddress,
    from_name: row.fromName,
    to_address: row.toAddress,
    subject: row.subject,
    delayed_at: row.delayedAt,
    sent_at: row.sentAt,
    external_id: row.externalId,
    error: row.error,
    attempts: row.attempts,
    opens_total: row.opensTotal,
    opens_unique: row.opensUnique,
    clicks_total: row.clicksTotal,
    clicks_unique: row.clicksUnique,
    clicked_at: row.clickedAt,
    opened_at: row.openedAt,
    human_opens: row.humanOpens,
    human_opened_at: row.humanOpenedAt,
    human_clicks: row.humanClicks,
    human_clicked_at: row.humanClickedAt,
    delivery_status: row.deliveryStatus as DeliveryStatus | null,
    delivery_error_code: row.deliveryErrorCode,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
  return content ? { ...item, ...content } : item;
}
