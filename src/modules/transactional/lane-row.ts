import type { SendOptions } from '../../shared/contracts/transactional';
import type { LaneRow } from './lane';
import type { ReadySend } from './prepare';

/**
 * The message row of a ready send. A test key's message is recorded as sent to a sandbox at once (external id
 * `sandbox`) and never queued: the call runs every check a live one does, and nothing is delivered.
 */
export function laneRowOf(
  orgId: number,
  send: ReadySend,
  files: NonNullable<SendOptions['attachments']>,
  who: { apiKeyId: number | null; sandbox: boolean; now: number },
): LaneRow {
  const options: SendOptions = { ...send.options };
  if (files.length) options.attachments = [...(options.attachments ?? []), ...files];
  if (who.sandbox) options.sandbox = true;
  return {
    org_id: orgId,
    type: send.channel,
    status: who.sandbox ? 'sent' : 'queued',
    is_test: 0,
    sender_id: send.sender.id,
    template_id: send.templateId,
    contact_id: send.contactId,
    from_address: send.sender.value,
    from_name: send.channel === 'email' ? send.sender.name : null,
    to_address: send.to,
    subject: send.subject,
    body: send.body,
    body_plain: send.bodyPlain,
    delayed_at: send.sendAt,
    sent_at: who.sandbox ? new Date(who.now).toISOString() : null,
    external_id: who.sandbox ? 'sandbox' : null,
    api_key_id: who.apiKeyId,
    metadata: send.metadata ? JSON.stringify(send.metadata) : null,
    send_options: Object.keys(options).length ? JSON.stringify(options) : null,
  };
}
