// Sending messages over an open SMTP session: many per connection, PIPELINING (RFC 2920) when the server offers
// it and one command at a time when it does not, per-recipient results, RSET after a failed transaction.
//
// Copies (cc, bcc) are envelope recipients whose refusal does not fail the message: the message goes when a `to`
// recipient is accepted, and not at all when none is (nobody gets a copy of a message that failed, so a retry
// cannot send a cc twice). That needs the RCPT replies before DATA: a message with copies pipelines
// MAIL + RCPT... and sends DATA after reading them, one round trip more; a message without copies is unchanged.
import { Buffer } from 'node:buffer';
import type { SmtpConnection } from './connection';
import { SmtpError } from './errors';
import { formatReply, isTransient, type SmtpReply } from './reply';
import { backgroundStep } from '../requests-first';

export interface SmtpEnvelope {
  /** Reverse-path (MAIL FROM); '' sends the null sender <>. */
  from: string;
  to: string[];
  /** Recipients (cc, bcc) whose refusal does not fail the message; refused ones come back in `rejectedCopies`. */
  copies?: string[];
}

export interface SmtpItem {
  envelope: SmtpEnvelope;
  /**
   * The whole message (headers, blank line, body) with CRLF line ends; dot-stuffing is done here. Or what builds it
   * when its turn comes, so that a batch's encoding is spread between the session's round trips, where a waiting
   * request gets in, instead of done in one block (src/lib/requests-first.ts); what it throws (or rejects with) fails
   * that message. It may be async (a DKIM signature, src/lib/dkim): awaited before dot-stuffing.
   */
  data: string | (() => string | Promise<string>);
}

/** What became of one message. */
export interface SmtpDelivery {
  ok: boolean;
  /** For failures: true when trying again later may work (4xx, lost connection). */
  retryable: boolean;
  /** The recipients (to and copies) the server took the message for. */
  accepted: string[];
  /** The `to` recipients the server refused. */
  rejected: Refusal[];
  /** On a success: the copies the server refused (only when there are some). */
  rejectedCopies?: Refusal[];
  /** The reply that decided (final reply after the content, or the refusal). */
  reply: SmtpReply | null;
  /** For failures: what went wrong, in words. */
  error?: string;
}

/** A recipient the server refused, and its answer. */
export interface Refusal {
  recipient: string;
  reply: SmtpReply;
}

/** Told of each message the server accepted (its final 2xx), as soon as it is known. */
export type OnDelivered = (index: number, delivery: SmtpDelivery) => void | Promise<void>;

/** Results in item order; null for items that were never started because the connection was lost first. */
export interface BatchOutcome {
  results: (SmtpDelivery | null)[];
  lost: SmtpError | null;
}

// Conservative checks on envelope addresses: they go into command lines, so no spaces, brackets or controls.
const ADDRESS = /^[^\s<>()[\],;:"\\@\u0000-\u001f\u007f]+@[^\s<>()[\],;:"\\@\u0000-\u001f\u007f]+$/;
const ASCII = /^[\u0000-\u007f]*$/;

/** True when the address is safe to put in MAIL FROM / RCPT TO and in a header. */
export const isValidAddress = (address: string) => ADDRESS.test(address);

/** A bare CR, a bare LF, or a line that starts with a dot. */
const NEEDS_STUFFING = /\r(?!\n)|(?<!\r)\n|\n\./;

/**
 * Prepares message content for DATA (RFC 5321 4.5.2): every line ending becomes CRLF, a line starting with "."
 * gets a second ".", and the end-of-data line "." follows.
 */
export function dotStuff(data: string): string {
  // A built message (src/lib/mime) has CRLF line ends already and rarely a line starting with a dot: one search
  // finds whether anything must change, half the time of rewriting it (and no 100 KB copy for the collector).
  // Otherwise one pass: each line end becomes CRLF, doubling the dot that starts the next line ($1 is empty when
  // there is none).
  let text = NEEDS_STUFFING.test(data) ? data.replace(/(?:\r\n|\r|\n)(\.)?/g, '\r\n$1$1') : data;
  if (text.startsWith('.')) text = `.${text}`;
  if (!text.endsWith('\r\n')) text += '\r\n';
  return `${text}.\r\n`;
}

/**
 * Sends the items over one open session, in order. Items that cannot go (bad address, too big) fail without
 * touching the connection. When the connection is lost, the message whose content was already sent is reported
 * retryable (outcome unknown) and the items not started come back as null, for the caller to send on a new
 * connection.
 */
export async function sendBatch(conn: SmtpConnection, items: SmtpItem[], onAccepted?: OnDelivered): Promise<BatchOutcome> {
  const results: (SmtpDelivery | null)[] = items.map(() => null);
  if (conn.broken) return { results, lost: new SmtpError('connection_lost', 'the connection is already closed') };
  const lost = conn.capabilities.pipelining ? await pipelined(conn, items, results, onAccepted) : await oneByOne(conn, items, results, onAccepted);
  return { results, lost };
}

interface Open {
  index: number;
  accepted: string[];
  rejected: Refusal[];
  rejectedCopies?: Refusal[];
  /** Dot-stuffed content, or just the end-of-data line when a server said 354 with no valid recipient. */
  body: string;
  discard: boolean;
}

/** RFC 2920: [content of the previous message +] [RSET +] MAIL + RCPT... + DATA in one write, then read all replies. */
async function pipelined(conn: SmtpConnection, items: SmtpItem[], results: (SmtpDelivery | null)[], onAccepted?: OnDelivered): Promise<SmtpError | null> {
  let open: Open | null = null;
  let bodySent: Open | null = null;
  let upcoming = nextToSend(conn, items, results, 0);
  try {
    for (;;) {
      const turn = await upcoming;
      const index = turn ? turn.index : -1;
      if (!open && !turn) break;
      let payload = open ? open.body : '';
      const reset = index >= 0 && conn.needsReset;
      if (index >= 0) {
        if (reset) payload += 'RSET\r\n';
        payload += transactionCommands(conn, items[index].envelope);
      }
      bodySent = open;
      open = null;
      await conn.write(payload);
      // The next message is built while the server reads this write, not while it waits for the next one.
      upcoming = turn ? nextToSend(conn, items, results, index + 1) : Promise.resolve(null);
      if (bodySent) {
        const reply = await answer(conn, 'the message content', conn.timeouts.data);
        const done: Open = bodySent;
        bodySent = null;
        if (!done.discard) {
          results[done.index] = finalDelivery(conn, reply, done);
          if (results[done.index]?.ok) await onAccepted?.(done.index, results[done.index]!);
        }
      }
      if (turn) {
        if (reset) await expectReset(conn);
        open = await readTransaction(conn, items[index], turn.content, index, results);
      }
    }
    return null;
  } catch (error) {
    return lostConnection(conn, error, bodySent, results);
  }
}

/** Without PIPELINING: each command waits for its reply before the next goes out. */
async function oneByOne(conn: SmtpConnection, items: SmtpItem[], results: (SmtpDelivery | null)[], onAccepted?: OnDelivered): Promise<SmtpError | null> {
  let bodySent: Open | null = null;
  try {
    for (let turn = await nextToSend(conn, items, results, 0); turn; turn = await nextToSend(conn, items, results, turn.index + 1)) {
      const { index, content } = turn;
      const { envelope } = items[index];
      if (conn.needsReset) {
        await conn.write('RSET\r\n');
        await expectReset(conn);
      }
      await conn.write(mailCommand(conn, envelope));
      const mail = await answer(conn, 'MAIL FROM');
      if (mail.code < 200 || mail.code >= 300) {
        results[index] = refused(conn, mail, `The server refused the sender <${envelope.from}>`);
        continue;
      }
      const replies: SmtpReply[] = [];
      for (const rcpt of envelope.to) {
        await conn.write(`RCPT TO:<${rcpt}>\r\n`);
        replies.push(await answer(conn, 'RCPT TO'));
      }
      const { accepted, rejected } = sortRecipients(envelope.to, replies);
      if (accepted.length === 0) {
        results[index] = noRecipients(conn, rejected);
        continue;
      }
      // The copies are named only once `to` is accepted: a message refused for `to` goes to nobody.
      let copyReplies: SmtpReply[] | null = null;
      if (envelope.copies) {
        copyReplies = [];
        for (const rcpt of envelope.copies) {
          await conn.write(`RCPT TO:<${rcpt}>\r\n`);
          copyReplies.push(await answer(conn, 'RCPT TO'));
        }
      }
      await conn.write('DATA\r\n');
      const data = await answer(conn, 'DATA');
      if (data.code !== 354) {
        results[index] = refused(conn, data, 'The server refused to take the message content (DATA)');
        continue;
      }
      bodySent = withCopies({ index, accepted, rejected, body: dotStuff(content), discard: false }, envelope, copyReplies);
      await conn.write(bodySent.body);
      results[index] = finalDelivery(conn, await answer(conn, 'the message content', conn.timeouts.data), bodySent);
      bodySent = null;
      if (results[index]?.ok) await onAccepted?.(index, results[index]!);
    }
    return null;
  } catch (error) {
    return lostConnection(conn, error, bodySent, results);
  }
}

/** MAIL, RCPT for each recipient, and DATA, unless the envelope has copies (DATA then waits, see the top). */
function transactionCommands(conn: SmtpConnection, envelope: SmtpEnvelope): string {
  let text = mailCommand(conn, envelope);
  for (const rcpt of envelope.to) text += `RCPT TO:<${rcpt}>\r\n`;
  if (envelope.copies) {
    for (const rcpt of envelope.copies) text += `RCPT TO:<${rcpt}>\r\n`;
    return text;
  }
  return `${text}DATA\r\n`;
}

function mailCommand(_conn: SmtpConnection, envelope: SmtpEnvelope): string {
  const needsUtf8 = !ASCII.test(envelope.from) || envelope.to.some((a) => !ASCII.test(a)) || (envelope.copies?.some((a) => !ASCII.test(a)) ?? false);
  return `MAIL FROM:<${envelope.from}>${needsUtf8 ? ' SMTPUTF8' : ''}\r\n`;
}

/** Reads the replies to one pipelined MAIL/RCPT/DATA group and decides whether the content may follow. */
async function readTransaction(conn: SmtpConnection, item: SmtpItem, content: string, index: number, results: (SmtpDelivery | null)[]): Promise<Open | null> {
  if (item.envelope.copies) return readTransactionWithCopies(conn, item, content, index, results);
  const mail = await answer(conn, 'MAIL FROM');
  const replies: SmtpReply[] = [];
  for (let i = 0; i < item.envelope.to.length; i++) replies.push(await answer(conn, 'RCPT TO'));
  const data = await answer(conn, 'DATA');
  const { accepted, rejected } = sortRecipients(item.envelope.to, replies);
  const mailOk = mail.code >= 200 && mail.code < 300;
  if (mailOk && accepted.length > 0 && data.code === 354) {
    return { index, accepted, rejected, body: dotStuff(content), discard: false };
  }
  if (!mailOk) results[index] = refused(conn, mail, `The server refused the sender <${item.envelope.from}>`);
  else if (accepted.length === 0) results[index] = noRecipients(conn, rejected);
  else results[index] = refused(conn, data, 'The server refused to take the message content (DATA)');
  // A server that still says 354 waits for content: end it at once, and ignore what it says about it.
  return data.code === 354 ? { index, accepted: [], rejected: [], body: '.\r\n', discard: true } : null;
}

/**
 * The same for an envelope with copies, whose group ended with the last RCPT: DATA goes only once a `to` recipient
 * is accepted, so a message refused for `to` reaches nobody (RSET then drops the copies the server took).
 */
async function readTransactionWithCopies(
  conn: SmtpConnection,
  item: SmtpItem,
  content: string,
  index: number,
  results: (SmtpDelivery | null)[],
): Promise<Open | null> {
  const { envelope } = item;
  const mail = await answer(conn, 'MAIL FROM');
  const replies: SmtpReply[] = [];
  for (let i = 0; i < envelope.to.length; i++) replies.push(await answer(conn, 'RCPT TO'));
  const copyReplies: SmtpReply[] = [];
  for (let i = 0; i < (envelope.copies?.length ?? 0); i++) copyReplies.push(await answer(conn, 'RCPT TO'));
  const { accepted, rejected } = sortRecipients(envelope.to, replies);
  if (mail.code < 200 || mail.code >= 300) {
    results[index] = refused(conn, mail, `The server refused the sender <${envelope.from}>`);
    return null;
  }
  if (accepted.length === 0) {
    results[index] = noRecipients(conn, rejected);
    return null;
  }
  await conn.write('DATA\r\n');
  const data = await answer(conn, 'DATA');
  if (data.code !== 354) {
    results[index] = refused(conn, data, 'The server refused to take the message content (DATA)');
    return null;
  }
  return withCopies({ index, accepted, rejected, body: dotStuff(content), discard: false }, envelope, copyReplies);
}

/** Adds the copies' answers to a transaction that goes: accepted ones join `accepted`, refused ones `rejectedCopies`. */
function withCopies(open: Open, envelope: SmtpEnvelope, copyReplies: SmtpReply[] | null): Open {
  if (!envelope.copies || !copyReplies) return open;
  const copies = sortRecipients(envelope.copies, copyReplies);
  open.accepted.push(...copies.accepted);
  if (copies.rejected.length > 0) open.rejectedCopies = copies.rejected;
  return open;
}

/** Reads a reply; a 421 means the server is closing the session, which ends this connection's batch. */
async function answer(conn: SmtpConnection, what: string, timeoutMs?: number): Promise<SmtpReply> {
  const reply = await conn.read(what, timeoutMs);
  if (reply.code === 421) throw new SmtpError('rejected', `The server closed the session after ${what}: ${formatReply(reply)}`, reply);
  return reply;
}

async function expectReset(conn: SmtpConnection): Promise<void> {
  const reply = await answer(conn, 'RSET');
  if (reply.code !== 250) throw new SmtpError('protocol', `The server did not accept RSET: ${formatReply(reply)}`, reply);
  conn.needsReset = false;
}

function sortRecipients(to: string[], replies: SmtpReply[]) {
  const accepted: string[] = [];
  const rejected: Refusal[] = [];
  to.forEach((recipient, i) => {
    const reply = replies[i];
    if (reply.code === 250 || reply.code === 251) accepted.push(recipient);
    else rejected.push({ recipient, reply });
  });
  return { accepted, rejected };
}

function finalDelivery(conn: SmtpConnection, reply: SmtpReply, open: Open): SmtpDelivery {
  if (reply.code >= 200 && reply.code < 300) {
    const delivery: SmtpDelivery = { ok: true, retryable: false, accepted: open.accepted, rejected: open.rejected, reply };
    if (open.rejectedCopies) delivery.rejectedCopies = open.rejectedCopies;
    return delivery;
  }
  conn.needsReset = true;
  return {
    ok: false,
    retryable: isTransient(reply),
    accepted: [],
    rejected: open.rejected,
    reply,
    error: `The server did not accept the message: ${formatReply(reply)}`,
  };
}

function refused(conn: SmtpConnection, reply: SmtpReply, what: string): SmtpDelivery {
  conn.needsReset = true;
  return { ok: false, retryable: isTransient(reply), accepted: [], rejected: [], reply, error: `${what}: ${formatReply(reply)}` };
}

function noRecipients(conn: SmtpConnection, rejected: Refusal[]): SmtpDelivery {
  conn.needsReset = true;
  return {
    ok: false,
    // Worth another try only when every refusal was temporary (e.g. greylisting, mailbox busy).
    retryable: rejected.every((r) => isTransient(r.reply)),
    accepted: [],
    rejected,
    reply: rejected[0]?.reply ?? null,
    error: rejected.map((r) => `The server refused the recipient <${r.recipient}>: ${formatReply(r.reply)}`).join('; '),
  };
}

function failed(error: string, retryable = false): SmtpDelivery {
  return { ok: false, retryable, accepted: [], rejected: [], reply: null, error };
}

/**
 * The first item from `from` on that can go, with its content, each checked (and built) as its turn comes, after the
 * items that cannot are given their failure; null when none is left. The content lives only while its message is
 * on the way: a batch never holds all of its messages built at once (attachments make them large).
 */
async function nextToSend(
  conn: SmtpConnection,
  items: SmtpItem[],
  results: (SmtpDelivery | null)[],
  from: number,
): Promise<{ index: number; content: string } | null> {
  for (let index = from; index < items.length; index++) {
    if (results[index]) continue;
    await backgroundStep();
    const checked = await precheck(conn, items[index]);
    if ('content' in checked) return { index, content: checked.content };
    results[index] = checked.failure;
  }
  return null;
}

/** Checks an item before it goes near the connection and builds its content; a failure here is permanent. */
async function precheck(conn: SmtpConnection, item: SmtpItem): Promise<{ content: string } | { failure: SmtpDelivery }> {
  const problem = addressProblem(conn, item.envelope);
  if (problem) return { failure: failed(problem) };
  let content: string;
  try {
    content = typeof item.data === 'function' ? await item.data() : item.data;
  } catch (error) {
    return { failure: failed(`The message could not be built: ${String(error)}`) };
  }
  const limit = conn.capabilities.size;
  if (limit > 0) {
    const size = Buffer.byteLength(content, 'utf8'); // counted natively: no regex pass over the message
    if (size > limit) return { failure: failed(`The message is ${size} bytes; the server accepts at most ${limit}.`) };
  }
  return { content };
}

/** What is wrong with an envelope's addresses for this server, if anything. */
function addressProblem(conn: SmtpConnection, { from, to, copies }: SmtpEnvelope): string | null {
  if (from !== '' && !ADDRESS.test(from)) return `The sender address "${from}" is not a valid email address.`;
  if (to.length === 0) return 'The message has no recipient.';
  const bad = to.find((a) => !ADDRESS.test(a)) ?? copies?.find((a) => !ADDRESS.test(a));
  if (bad !== undefined) return `The recipient address "${bad}" is not a valid email address.`;
  const international = !ASCII.test(from) || to.some((a) => !ASCII.test(a)) || (copies?.some((a) => !ASCII.test(a)) ?? false);
  if (international && !conn.capabilities.smtpUtf8) {
    return 'An address has non-ASCII characters and the server does not support international addresses (SMTPUTF8).';
  }
  return null;
}

/** After a lost connection: the message whose content went out has an unknown outcome (retryable). */
function lostConnection(conn: SmtpConnection, error: unknown, bodySent: Open | null, results: (SmtpDelivery | null)[]): SmtpError {
  conn.abort();
  const lost = error instanceof SmtpError ? error : new SmtpError('connection_lost', String(error));
  if (bodySent && !bodySent.discard && !results[bodySent.index]) {
    const error =
      lost.kind === 'rejected' ? lost.message : `The connection was lost after the message content was sent (${lost.message}); it may not have been delivered.`;
    results[bodySent.index] = { ...failed(error, true), reply: lost.reply };
  }
  return lost;
}
