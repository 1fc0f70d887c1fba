import { platformOrigin } from '../../lib/org-url';

// Where Twilio calls us for one integration: delivery receipts (sent with every SMS as StatusCallback) and inbound
// replies (set as the number's "A message comes in" webhook). On the platform host, so the URL Twilio signs is
// the one we rebuild when we check the signature, whatever host header a proxy hands the worker.

export type TwilioHook = 'status' | 'inbound';

export function twilioHookUrl(env: { PUBLIC_URL: string }, integrationId: number, hook: TwilioHook): string {
  return `${platformOrigin(env)}/api/v1/hooks/twilio/${integrationId}/${hook}`;
}
