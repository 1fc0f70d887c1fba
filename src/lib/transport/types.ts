// The one small interface the sending engine drives, whatever the channel. SMTP and SMS implement it.
import type { DkimSigner } from '../dkim/sign';

export interface OutgoingAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface OutgoingMessage {
  /** Our message id; the transport derives a traceable Message-ID (email) from it. */
  id: number;
  from: { address: string; name?: string | null };
  to: string;
  /** Email only. */
  subject?: string | null;
  /** Email: the html (or text) body. SMS: the text. */
  body: string;
  /** Email only: plain-text alternative; derived from the html when empty. */
  bodyPlain?: string | null;
  /** Email only: true when `body` is html. */
  html?: boolean;
  attachments?: OutgoingAttachment[];
  /** Email only: envelope sender / Return-Path; the integration's return_path when not given. */
  returnPath?: string | null;
  /** Email only: extra headers (e.g. List-Unsubscribe). Bcc and the headers the transport sets are dropped. */
  headers?: Record<string, string> | null;
  /** Email only: more visible recipients (a Cc header and envelope recipients). */
  cc?: string[];
  /** Email only: hidden recipients: envelope recipients only, never in a header. */
  bcc?: string[];
  /** Email only: the Reply-To address. */
  replyTo?: string | null;
  /**
   * Email only: sign the message as built with this DKIM key (d= its domain), before dot-stuffing; absent or null:
   * unsigned. The caller imports the key once for many messages (src/modules/sending/dkim-signers.ts).
   */
  dkim?: DkimSigner | null;
}

/**
 * A cc or bcc recipient the provider refused for a message it accepted for `to`. The message's outcome follows
 * `to` alone, so such a refusal does not fail it; it comes back on the success (`SendResult.refused`) for the engine
 * to record on the message (its error/note), so the sender can see who did not get a copy.
 */
export interface RefusedCopy {
  address: string;
  field: 'cc' | 'bcc';
  /** The provider's answer, in words (e.g. "550 5.1.1 No such user"). */
  error: string;
  /** True when the refusal was temporary (4xx): that copy was still not sent, and no retry will send it. */
  retryable: boolean;
}

/**
 * Why a failure happened, where the engine acts on it: `throttled` is the provider's "try later" (SMTP
 * 421/450/451, Twilio 429/20429), which slows the integration down instead of failing the recipient;
 * `unreachable` means no session could be opened at all (refused, unknown host, no answer); `mailbox` that the
 * server refused the recipient for good because the address does not exist or is disabled (a bounce during the session).
 */
export type FailureCause = 'throttled' | 'unreachable' | 'mailbox';

export type SendResult =
  /** `refused`: only when a cc or bcc was refused (see RefusedCopy); absent on every other success. */
  | { ok: true; externalId: string; refused?: RefusedCopy[] }
  /** retryable: 4xx SMTP replies, 429/20429 from the SMS provider, timeouts, dropped connections. */
  | { ok: false; retryable: boolean; error: string; cause?: FailureCause };

/** Told of each message a provider accepted, as soon as it did. */
export type OnAccepted = (index: number, result: Extract<SendResult, { ok: true }>) => void | Promise<void>;

/** A connection to one provider account; sends many messages, then closes. */
export interface Transport {
  send(message: OutgoingMessage): Promise<SendResult>;
  /**
   * Sends a batch over as few connections/round trips as the channel allows, results in the same order.
   * `onAccepted` hears of each message the provider accepted as soon as it did (its index in `messages`, and its
   * result); the transport waits for the promise it returns before it sends more (the caller's backpressure).
   */
  sendMany(messages: OutgoingMessage[], onAccepted?: OnAccepted): Promise<SendResult[]>;
  close(): Promise<void>;
}
