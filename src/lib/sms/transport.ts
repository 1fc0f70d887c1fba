// The SMS side of the Transport interface: each message is one call to Twilio's Messages API.
import type { OnAccepted, OutgoingMessage, SendResult, Transport } from '../transport/types';
import { sendTwilioSms, type TwilioAccount } from './twilio';

/** A Worker invocation may hold 6 outbound connections; leave room for the rest of the work. */
const PARALLEL = 4;

/** SMS through Twilio: sendMany runs a few requests at a time, results in order. */
export class TwilioTransport implements Transport {
  constructor(private account: TwilioAccount) {}

  /** Sends one SMS: From is the sender's number, Body the text. */
  send(message: OutgoingMessage): Promise<SendResult> {
    return sendTwilioSms(this.account, { to: message.to, from: message.from.address, body: message.body, messageId: message.id });
  }

  /** Sends the batch with a few requests in flight at once; results in the order of `messages`. */
  async sendMany(messages: OutgoingMessage[], onAccepted?: OnAccepted): Promise<SendResult[]> {
    const results: SendResult[] = new Array(messages.length);
    let next = 0;
    const worker = async () => {
      while (next < messages.length) {
        const i = next++;
        const result = await this.send(messages[i]);
        results[i] = result;
        if (result.ok) await onAccepted?.(i, result);
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, messages.length) }, worker));
    return results;
  }

  /** Nothing to close: every request stands alone. */
  async close(): Promise<void> {}
}
