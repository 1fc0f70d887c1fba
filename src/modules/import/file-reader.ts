// Reading an uploaded CSV from R2 in bounded pieces. The consumer never holds the file: it asks R2 for one
// window (a range read) at a time and hands its stream chunks to the parser as they arrive, so memory stays
// at one chunk plus the parser's unfinished row, whatever the file size. A resumed job starts at its cursor.

/** Default size of one R2 range read. */
export const READ_WINDOW_BYTES = 8 * 1024 * 1024;

export interface ReadStats {
  /** R2 range reads made. */
  reads: number;
  /** Largest chunk received from R2, in bytes. */
  maxChunkBytes: number;
  /** Bytes received. */
  bytes: number;
}

/** The uploaded object is gone (deleted or never stored): the import fails with a clear message, no retry. */
export class ImportFileMissing extends Error {
  constructor(readonly key: string) {
    super(`The import file ${key} is missing from storage`);
  }
}

/** The object's size, or null when it is not there. */
export async function fileSize(bucket: R2Bucket, key: string): Promise<number | null> {
  const head = await bucket.head(key);
  return head ? head.size : null;
}

/**
 * Yields the bytes of `key` from `start` to the end, one R2 range read of `windowBytes` at a time and,
 * within a window, chunk by chunk as the stream delivers them.
 */
export async function* readFileFrom(
  bucket: R2Bucket,
  key: string,
  start: number,
  size: number,
  stats: ReadStats,
  windowBytes = READ_WINDOW_BYTES,
): AsyncGenerator<Uint8Array> {
  let offset = start;
  while (offset < size) {
    const windowStart = offset;
    const length = Math.min(windowBytes, size - offset);
    const object = await bucket.get(key, { range: { offset, length } });
    if (!object) throw new ImportFileMissing(key);
    stats.reads++;
    const reader = object.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const chunk = value instanceof Uint8Array ? value : new Uint8Array(value as ArrayBuffer);
        stats.maxChunkBytes = Math.max(stats.maxChunkBytes, chunk.byteLength);
        stats.bytes += chunk.byteLength;
        offset += chunk.byteLength;
        yield chunk;
      }
    } finally {
      // Stopped early (the job yields its time slice): let R2 close the stream.
      await reader.cancel().catch(() => undefined);
    }
    if (offset === windowStart) throw new Error(`R2 returned no bytes for ${key} at ${offset}`);
  }
}

/** A fresh set of read counters. */
export function newReadStats(): ReadStats {
  return { reads: 0, maxChunkBytes: 0, bytes: 0 };
}
