import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { messages } from '../../db/schema';
import { messageFilterShape, type Message, type MessageKind, type MessageListItem, type MessageOutcome } from '../../shared/contracts/message';
import { crudRoutes } from '../crud/crud-routes';
import { requestLedgers, requestMessageLedger } from '../ledger/request-ledger';
import { messageContent } from './content';
import { kindCondition, outcomeCondition } from './outcome-filter';
import { presentMessage } from './present';

/** /message: list (newest first), read, delete one and in bulk. Messages are created by sending, never by hand. */
export const messageRoutes = crudRoutes<typeof messages, Record<string, never>, Message | MessageListItem>({
  table: messages,
  // Never mounted (no create or update); the contract needs a schema.
  input: z.object({}).strict(),
  only: ['list', 'read', 'delete', 'bulkDelete'],
  // The messages are in the organisation's ledgers (src/modules/ledger), their kept totals with them; an id names its ledger.
  stores: { all: requestLedgers, ofId: requestMessageLedger },
  sortable: {
    // The order of creation, which the (org_id) index gives page by page at any size.
    created_at: messages.id,
    id: messages.id,
    sent_at: messages.sentAt,
    status: messages.status,
    type: messages.type,
    to_address: messages.toAddress,
    from_address: messages.fromAddress,
    subject: messages.subject,
  },
  defaultSort: { key: 'created_at', order: 'desc' },
  search: [messages.toAddress, messages.fromAddress, messages.subject, messages.externalId],
  filters: {
    shape: messageFilterShape,
    where: (f) => [
      // A message a consumer is sending right now is still queued to the user.
      f.status === 'queued' ? inArray(messages.status, ['queued', 'sending']) : f.status ? eq(messages.status, f.status as string) : undefined,
      f.outcome ? outcomeCondition(f.outcome as MessageOutcome) : undefined,
      f.kind ? kindCondition(f.kind as MessageKind) : undefined,
      f.type ? eq(messages.type, f.type as string) : undefined,
      f.broadcast_id ? eq(messages.broadcastId, f.broadcast_id as number) : undefined,
      // The ledger's messages_contact index serves it.
      f.contact_id ? eq(messages.contactId, f.contact_id as number) : undefined,
    ],
  },
  keptTotal: { whole: 'messages', per: { filter: 'broadcast_id', list: 'broadcast_messages' } },
  audit: 'message',
  // A broadcast counts on each of its messages being sent, failed or skipped: one still to go cannot be removed.
  undeletable: {
    keep: sql`(${messages.broadcastId} IS NOT NULL AND ${messages.status} IN ('queued', 'sending'))`,
    message: 'This message of a running broadcast has not gone out yet: cancel the broadcast first, or wait until it is sent',
  },
  // Only GET /message/{id} carries the content (it can be large): not the list, nor the activity log of a delete.
  present: (c, rows) =>
    Promise.all(rows.map(async (row) => presentMessage(row, c.req.method === 'GET' && c.req.param('id') ? await messageContent(c.env, c.var.db, row) : null))),
});
