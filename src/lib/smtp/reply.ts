// SMTP replies: parsing the server's answers (single and multi-line, RFC 5321 4.2) off a byte stream.
import { SmtpError } from './errors';

/** One server reply: the three-digit code, the enhanced status code when given, and its text lines. */
export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code (e.g. "5.1.1") when the server sent one. */
  enhanced: string | null;
  lines: string[];
}

const LINE = /^(\d{3})(?:([ -])(.*))?$/;
const ENHANCED = /^([245]\.\d{1,3}\.\d{1,3})\s+/;

/** The reply as one line a person can read: "550 5.1.1 No such user". */
export function formatReply(reply: SmtpReply): string {
  return `${reply.code} ${reply.lines.join(' ').trim()}`.trim();
}

/** 4xx is transient (worth retrying later); 5xx permanent (RFC 5321 4.2.1). */
export const isTransient = (reply: SmtpReply) => reply.code >= 400 && reply.code < 500;

/**
 * Reads complete replies off the socket, in order. Pipelined answers arrive several per packet, so it keeps a
 * buffer and hands out one reply per call; a read that takes longer than its timeout fails with a timeout
 * error and the caller drops the connection (the pending read cannot be taken back).
 */
export class ReplyReader {
  private buffer = '';
  private decoder = new TextDecoder();
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  private ended = false;

  constructor(private reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** True when bytes the server sent have not been consumed as a reply yet. */
  hasBuffered(): boolean {
    return this.buffer.length > 0;
  }

  /** Waits for the next whole reply; `what` names the command in error messages. */
  async next(timeoutMs: number, what: string): Promise<SmtpReply> {
    for (;;) {
      const reply = this.take();
      if (reply) return reply;
      if (this.ended) {
        throw new SmtpError('connection_lost', `the server closed the connection while we waited for the reply to ${what}`);
      }
      await this.fill(timeoutMs, what);
    }
  }

  /** Releases the stream so the socket can be upgraded to TLS. */
  release(): void {
    this.reader.releaseLock();
  }

  private async fill(timeoutMs: number, what: string): Promise<void> {
    this.pending ??= this.reader.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SmtpError('timeout', `no reply to ${what} within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    });
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await Promise.race([this.pending, timeout]);
    } catch (error) {
      if (error instanceof SmtpError) throw error;
      this.ended = true;
      throw new SmtpError('connection_lost', `the connection broke while we waited for the reply to ${what}: ${messageOf(error)}`);
    } finally {
      clearTimeout(timer);
    }
    this.pending = null;
    if (result.done) {
      this.ended = true;
      this.buffer += this.decoder.decode();
    } else {
      this.buffer += this.decoder.decode(result.value, { stream: true });
    }
  }

  /** Cuts one complete reply from the front of the buffer, or returns null when it is not all there yet. */
  private take(): SmtpReply | null {
    let start = 0;
    const lines: string[] = [];
    let code = 0;
    for (;;) {
      const end = this.buffer.indexOf('\n', start);
      if (end < 0) return null;
      const line = this.buffer.slice(start, end).replace(/\r$/, '');
      start = end + 1;
      const match = LINE.exec(line);
      if (!match) {
        this.buffer = '';
        throw new SmtpError('protocol', `the server sent something that is not an SMTP reply: "${line.slice(0, 120)}"`);
      }
      const lineCode = Number(match[1]);
      if (lines.length > 0 && lineCode !== code) {
        this.buffer = '';
        throw new SmtpError('protocol', `the server mixed reply codes ${code} and ${lineCode} in one reply`);
      }
      code = lineCode;
      lines.push(match[3] ?? '');
      if (match[2] !== '-') break;
    }
    this.buffer = this.buffer.slice(start);
    const enhanced = ENHANCED.exec(lines[0] ?? '');
    return { code, enhanced: enhanced ? enhanced[1] : null, lines };
  }
}

/** The message of whatever was thrown, for error texts. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
