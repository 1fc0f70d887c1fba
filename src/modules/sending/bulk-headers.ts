import { formatMailbox } from '../../lib/mime/encode';

// The headers a broadcast email carries because it is bulk mail, beside From, To and Subject:
// - List-Unsubscribe + List-Unsubscribe-Post (RFC 2369, RFC 8058): mail clients offer an unsubscribe button, and a
//   POST of List-Unsubscribe=One-Click to the same URL unsubscribes at once (src/modules/unsubscribe/one-click.ts).
//   Left out when the broadcast is one people cannot unsubscribe from (do_not_unsubscribe).
// - List-Id (RFC 2919): which list this is, so filters and mailbox providers can tell the organisation's lists
//   apart: "<Organisation>: <Subscription>" <subscription-<id>.<org host>>, or the broadcast when it has no
//   subscription. The id lives under the organisation's own host, a namespace the platform controls.
// - Feedback-ID (Gmail's feedback loop): broadcast:organisation:mail type:sender id, so spam reports come back
//   grouped by broadcast and organisation. The sender id is the platform's, the same on every mail.
// - Precedence: bulk. Not a standard, but RFC 3834 asks automatic responders (out-of-office, vacation) not to
//   answer bulk mail, and they answer the return path: without it every broadcast draws a wave of auto-replies.

/** The stable sender id of Feedback-ID (Gmail asks for one per sending platform). */
export const FEEDBACK_SENDER_ID = 'relay';

export interface BulkBroadcast {
  id: number;
  name: string;
  subscription: { id: number; name: string } | null;
  organization: { name: string; domain: string };
}

/** The headers every message of a broadcast shares (List-Id, Feedback-ID, Precedence), made once per broadcast. */
export function listHeaders(env: { PUBLIC_URL: string }, orgId: number, b: BulkBroadcast): Record<string, string> {
  const org = b.organization;
  const host = `${org.domain}.${new URL(env.PUBLIC_URL || 'https://localhost').hostname}`.toLowerCase();
  const list = b.subscription ? { label: `subscription-${b.subscription.id}`, name: b.subscription.name } : { label: `broadcast-${b.id}`, name: b.name };
  return {
    'List-Id': formatMailbox(`${list.label}.${host}`, `${org.name}: ${list.name}`),
    'Feedback-ID': `${b.id}:${orgId}:broadcast:${FEEDBACK_SENDER_ID}`,
    Precedence: 'bulk',
  };
}

/** One message's bulk-mail headers: the broadcast's, plus its own one-click unsubscribe unless the broadcast has none. */
export function bulkHeaders(shared: Record<string, string>, unsubscribeUrl: string | null): Record<string, string> {
  if (!unsubscribeUrl) return shared;
  return { ...shared, 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}
