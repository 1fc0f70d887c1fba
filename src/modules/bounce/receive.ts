import type { Env } from '../../env';
import { handleBounceMail } from './handle';

// The worker's email handler: Cloudflare Email Routing delivers the bounce domain's mail here (README "Bounces and
// complaints"). The raw mail is read up to MAX_BYTES (a bounce carries the original's headers, rarely more); a
// larger one is still handled on what was read. A failure is thrown, so Email Routing answers the sending server with
// a temporary error and it tries again later: nothing is dropped.

const MAX_BYTES = 1024 * 1024;

export async function receiveBounceMail(message: ForwardableEmailMessage, env: Env): Promise<void> {
  const raw = await readUpTo(message.raw, MAX_BYTES);
  await handleBounceMail(env, { from: message.from, to: message.to, raw });
}

async function readUpTo(stream: ReadableStream<Uint8Array>, max: number): Promise<ArrayBuffer> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < max) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
  const out = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, Math.min(chunk.byteLength, out.byteLength - at));
    out.set(part, at);
    at += part.byteLength;
    if (at >= out.byteLength) break;
  }
  return out.buffer;
}
