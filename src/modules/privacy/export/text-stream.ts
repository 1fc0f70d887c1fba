/** Text gathered before it is handed on as one chunk: big enough to keep chunks few, small against the heap. */
export const CHUNK_CHARS = 32 * 1024;

/**
 * A byte stream of the text pieces `pieces` yields, pulled as the reader reads: a piece is produced only when the
 * reader wants more, so a slow download holds at most one chunk and the page being written, whatever the size.
 */
export function textStream(pieces: AsyncIterable<string>, chunkChars = CHUNK_CHARS): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let text = '';
        while (text.length < chunkChars) {
          const next = await iterator.next();
          if (next.done) {
            if (text) controller.enqueue(encoder.encode(text));
            controller.close();
            return;
          }
          text += next.value;
        }
        controller.enqueue(encoder.encode(text));
      },
      async cancel() {
        await iterator.return?.(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
