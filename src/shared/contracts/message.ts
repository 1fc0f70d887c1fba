import { z } from 'zod';

// Messages: every email or SMS the platform sends, test messages included. Read and delete only.
export const MESSAGE_TYPES = ['email', 'sms'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** queued (waiting or being sent), sent, failed (with the error), skipped (a broadcast recipient left out, with the reason). */
export const MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * An SMS's delivery as the provider reports it (Twilio status callbacks), moved forward only; undelivered and
 * failed come with the provider's error code.
 */
export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Filters of GET /message (and of the bulk delete), next to page, sort and search. */
export const messageFilterShape = {
  status: z.enum(MESSAGE_STATUSES, { error: 'status must be queued, sent, failed or skipped' }).optional(),
  type: z.enum(MESSAGE_TYPES, { error: 'type must be email or sms' }).optional(),
  broadcast_id: z.coerce.number({ error: 'broadcast_id must be a broadcast id' }).int('broadcast_id must be a broadcast id').positive('broadcast_id must be a broadcast id').optional(),
};

export interface Message {
  id: number;
  type: MessageType;
  status: MessageStatus;
  is_test: boolean;
  sender_id: number | null;
  template_id: number | null;
  contact_id: number | null;
  broadcast_id: number | null;
  from_address: string;
  from_name: string | null;
  to_address: string;
  subject: string | null;
  /** Broadcast messages are rendered again from the broadcast's frozen template when read (their rows keep no body). */
  body: string;
  body_plain: string | null;
  /** Whether `body` is html (show it sandboxed) or plain text. */
  html: boolean;
  delayed_at: string | null;
  sent_at: string | null;
  external_id: string | null;
  /** Why it failed (or the last retryable error while still queued). */
  error: string | null;
  attempts: number;
  /** Every open hit, and 1 once opened (a click counts as an open); the first at opened_at. */
  opens_total: number;
  opens_unique: number;
  opened_at: string | null;
  clicks_total: number;
  clicks_unique: number;
  clicked_at: string | null;
  /** The same for hits classified human (src/modules/tracking/classify.ts). */
  human_opens: number;
  human_opened_at: string | null;
  human_clicks: number;
  human_clicked_at: string | null;
  /** SMS only: null until the provider reports. */
  delivery_status: DeliveryStatus | null;
  delivery_error_code: string | null;
  created_at: string;
  updated_at: string;
}

/** Items of GET /message leave out the bodies (GET /message/{id} has them). */
export type MessageListItem = Omit<Message, 'body' | 'body_plain' | 'html'>;
