/**
 * The lines of a gzip text stream, decompressed and split as the bytes arrive: only the current piece and a partial
 * line are held, never the whole object. Empty lines are skipped.
 */
export async function* gzipLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.pipeThrough(new DecompressionStream('gzip')).pipeThrough(new TextDecoderStream()).getReader();
  let partial = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const pieces = (partial + value).split('\n');
      partial = pieces.pop() ?? '';
      for (const line of pieces) if (line) yield line;
    }
    if (partial) yield partial;
  } finally {
    // Stopped early (the answer was cancelled): let the object's stream go.
    await reader.cancel().catch(() => {});
  }
}
