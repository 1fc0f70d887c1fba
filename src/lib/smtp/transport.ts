// The email side of the Transport interface: builds each message, sends batches over one or more kept-open SMTP
// sessions, reconnects when a server ends a session mid-batch, and maps every outcome to a SendResult.
import { signEmail } from '../dkim/sign';
import { buildEmail } from '../mime/build';
import { domainOf, messageIdFor } from '../mime/message-id';
import type { OnAccepted, OutgoingMessage, SendResult, Transport } from '../transport/types';
import { SmtpConnection, type SmtpConnectOptions } from './connection';
import { copiesOf, invalidAddress, refusedCopies } from './copies';
import { SmtpError } from './errors';
import { providerIdOf } from './provider-id';
import { isValidAddress, sendBatch, type OnDelivered, type SmtpDelivery, type SmtpItem } from './send';

export interface SmtpTransportOptions extends SmtpConnectOptions {
  /** The integration's return_path: envelope sender and Return-Path header unless a message says otherwise. */
  returnPath?: string | null;
  /** Sessions used in parallel by sendMany (a Worker invocation may hold 6 outbound connections). */
  connections?: number;
}

/** How often one sendMany may open a new session after the server ended one (per connection slot). */
const MAX_RECONNECTS = 20;

/** An SMTP item and, when the message has bcc recipients, which copies are bcc only (lower case). */
interface MailItem extends SmtpItem {
  bccOnly?: ReadonlySet<string>;
}

interface Prepared {
  item: MailItem | null;
  messageId: string;
  /** Set when an address is not valid; the message is then never sent (one that cannot be built fails in send.ts). */
  failure: SendResult | null;
}

/** One kept-open session; batches on it run one after another. */
class Slot {
  private conn: SmtpConnection | null = null;
  private used = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private options: SmtpConnectOptions) {}

  run(items: MailItem[], onAccepted?: OnDelivered): Promise<SendResult[]> {
    const next = this.queue.then(() => this.deliver(items, onAccepted));
    this.queue = next.catch(() => {});
    return next;
  }

  private async deliver(items: MailItem[], onAccepted?: OnDelivered): Promise<SendResult[]> {
    const out: SendResult[] = new Array(items.length);
    let pending = items.map((_, i) => i);
    for (let round = 0; pending.length > 0; round++) {
      let conn: SmtpConnection;
      const reused = this.conn !== null && this.used;
      try {
        conn = await this.connection();
      } catch (error) {
        for (const i of pending) out[i] = failure(error);
        return out;
      }
      const sending = pending;
      const { results, lost } = await sendBatch(
        conn,
        sending.map((i) => items[i]),
        onAccepted && ((k, delivery) => onAccepted(sending[k], delivery)),
      );
      this.used = true;
      const left: number[] = [];
      results.forEach((result, k) => {
        if (result) out[pending[k]] = toSendResult(result, items[pending[k]]);
        else left.push(pending[k]);
      });
      const progress = left.length < pending.length;
      pending = left;
      if (!lost) break;
      this.conn = null;
      // A new session is worth it when the last one got something done, or was an old one that had gone stale.
      if (pending.length > 0 && ((!progress && !reused) || round >= MAX_RECONNECTS)) {
        for (const i of pending) out[i] = failure(lost);
        return out;
      }
    }
    return out;
  }

  private async connection(): Promise<SmtpConnection> {
    if (this.conn && !this.conn.broken) return this.conn;
    this.conn = await SmtpConnection.open(this.options);
    this.used = false;
    return this.conn;
  }

  async close(): Promise<void> {
    await this.queue;
    const conn = this.conn;
    this.conn = null;
    await conn?.quit();
  }
}

/** Email over SMTP: many messages per session, PIPELINING when offered, RSET after a failure. */
export class SmtpTransport implements Transport {
  private slots: Slot[];

  constructor(private options: SmtpTransportOptions) {
    const count = Math.max(1, Math.min(6, Math.floor(options.connections ?? 1)));
    this.slots = Array.from({ length: count }, () => new Slot(options));
  }

  /** Sends one message (its own batch of one). */
  async send(message: OutgoingMessage): Promise<SendResult> {
    return (await this.sendMany([message]))[0];
  }

  /** Sends the batch split over the sessions; results come back in the order of `messages`. */
  async sendMany(messages: OutgoingMessage[], onAccepted?: OnAccepted): Promise<SendResult[]> {
    const prepared = messages.map((m) => this.prepare(m));
    const results: SendResult[] = prepared.map((p) => p.failure ?? { ok: true, externalId: p.messageId });
    const sendable = prepared.map((_p, i) => i).filter((i) => prepared[i].item);
    const per = Math.ceil(sendable.length / this.slots.length);
    await Promise.all(
      this.slots.map(async (slot, s) => {
        const share = sendable.slice(s * per, (s + 1) * per);
        if (share.length === 0) return;
        const outcome = await slot.run(
          share.map((i) => prepared[i].item!),
          onAccepted &&
            ((k, delivery) => {
              const { item, messageId } = prepared[share[k]];
              return onAccepted(share[k], acceptedResult(delivery, item!, messageId));
            }),
        );
        share.forEach((i, k) => {
          const result = outcome[k];
          results[i] = result.ok && !result.externalId ? { ...result, externalId: prepared[i].messageId } : result;
        });
      }),
    );
    return results;
  }

  /** Ends every session with QUIT. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((slot) => slot.close()));
  }

  private prepare(message: OutgoingMessage): Prepared {
    const from = message.from.address.trim();
    const to = message.to.trim();
    const returnPath = (message.returnPath ?? this.options.returnPath ?? '').trim() || from;
    const messageId = messageIdFor(message.id, domainOf(from) || this.options.clientName);
    const invalid = [
      [from, 'sender'],
      [to, 'recipient'],
      [returnPath, 'return path'],
    ].find(([address]) => !isValidAddress(address));
    if (invalid) return { item: null, messageId, failure: invalidAddress(invalid[1], invalid[0]) };
    // Only a message with cc, bcc or a reply-to pays for them: the broadcast path stays as it was.
    const extra = message.cc?.length || message.bcc?.length || message.replyTo ? copiesOf(message, to) : null;
    if (extra && 'failure' in extra) return { item: null, messageId, failure: extra.failure };
    // Built when its turn on the session comes (send.ts), which also reports a message that cannot be built; signed
    // as built, so the signature covers exactly what goes out (send.ts dot-stuffs it afterwards).
    const build = () =>
      buildEmail({
        messageId,
        from: { address: from, name: message.from.name },
        to,
        cc: extra?.cc,
        replyTo: extra?.replyTo,
        subject: message.subject,
        body: message.body,
        html: message.html,
        bodyPlain: message.bodyPlain,
        attachments: message.attachments,
        returnPath,
        headers: message.headers,
      });
    const dkim = message.dkim;
    const data = dkim ? () => signEmail(dkim, build()) : build;
    if (!extra?.copies) return { item: { envelope: { from: returnPath, to: [to] }, data }, messageId, failure: null };
    const item: MailItem = { envelope: { from: returnPath, to: [to], copies: extra.copies }, data };
    if (extra.bccOnly) item.bccOnly = extra.bccOnly;
    return { item, messageId, failure: null };
  }
}

/**
 * The success of a delivery. Copies the server refused ride along in `refused` (the message counts as sent to `to`,
 * which is what decides): the engine records them on the message, so a lost copy is seen, not silently dropped.
 */
function acceptedResult(delivery: SmtpDelivery, item: MailItem, messageId: string): Extract<SendResult, { ok: true }> {
  const externalId = providerIdOf(delivery.reply) ?? messageId;
  if (!delivery.rejectedCopies) return { ok: true, externalId };
  return { ok: true, externalId, refused: refusedCopies(delivery.rejectedCopies, item.bccOnly) };
}

/** SMTP's "try later" replies: service not available, mailbox busy, local error (often a rate limit). */
const THROTTLE_CODES = new Set([421, 450, 451]);

function toSendResult(delivery: SmtpDelivery, item: MailItem): SendResult {
  if (delivery.ok) return acceptedResult(delivery, item, '');
  const code = delivery.reply?.code ?? delivery.rejected[0]?.reply.code;
  const error = delivery.error ?? `Not sent to ${item.envelope.to.join(', ')}`;
  const cause = code && THROTTLE_CODES.has(code) ? 'throttled' : mailboxRefused(delivery) ? 'mailbox' : undefined;
  return { ok: false, retryable: delivery.retryable, error, ...(cause ? { cause } : {}) };
}

/**
 * Whether the server refused the recipient for good because of the mailbox itself: a 5xx to RCPT TO with an enhanced
 * code about the address (5.1.x bad address, 5.2.1 disabled), or without one 550/551/553. A policy refusal (5.7.x:
 * spam, relaying) says nothing about the address and is not one.
 */
function mailboxRefused(delivery: SmtpDelivery): boolean {
  if (delivery.retryable || delivery.accepted.length > 0 || delivery.rejected.length === 0) return false;
  return delivery.rejected.every(({ reply }) =>
    reply.enhanced ? /^5\.1\.\d+$|^5\.2\.1$/.test(reply.enhanced) : reply.code === 550 || reply.code === 551 || reply.code === 553,
  );
}

/** Kinds of session failure that mean the server could not be reached at all. */
const UNREACHABLE = new Set(['refused', 'unreachable', 'bad_host']);

function failure(error: unknown): SendResult {
  if (error instanceof SmtpError) {
    const cause = error.reply && THROTTLE_CODES.has(error.reply.code) ? 'throttled' : UNREACHABLE.has(error.kind) ? 'unreachable' : undefined;
    return { ok: false, retryable: error.retryable, error: error.message, ...(cause ? { cause } : {}) };
  }
  return { ok: false, retryable: true, error: `SMTP failure: ${String(error)}` };
}
