// Storing an uploaded CSV in R2 without holding it: the request body streams straight into R2. With a
// Content-Length the stream goes through a FixedLengthStream of that length into one put; without one it
// goes to an R2 multipart upload in fixed parts. Either way a counter stops it past the size limit.
import { ApiError, validationFailed } from '../../lib/api-error';
import { IMPORT_MAX_BYTES, IMPORT_MESSAGES } from '../../shared/contracts/import';

/** R2 multipart parts must be equal (but the last) and at least 5 MiB. */
const PART_BYTES = 8 * 1024 * 1024;

/** The 413 of a file over the limit. */
export const tooLarge = () => new ApiError(413, 'bad_request', IMPORT_MESSAGES.tooLarge);
const emptyFile = () => validationFailed({ file: [IMPORT_MESSAGES.noRows] });

/** The R2 key of a new upload: under the organisation, so a key names its owner. */
export function importFileKey(orgId: number): string {
  return `orgs/${orgId}/imports/${crypto.randomUUID()}.csv`;
}

/** Whether a key is one of this organisation's upload keys (anything else is treated as not found). */
export function isOwnImportKey(orgId: number, key: string): boolean {
  const prefix = `orgs/${orgId}/imports/`;
  return key.startsWith(prefix) && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.csv$/.test(key.slice(prefix.length));
}

/** Passes bytes through and errors with a 413 once more than `maxBytes` went by; `seen.bytes` counts them. */
export function byteLimit(maxBytes: number, seen: { bytes: number }): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen.bytes += chunk.byteLength;
      if (seen.bytes > maxBytes) controller.error(tooLarge());
      else controller.enqueue(chunk);
    },
  });
}

/**
 * Streams `body` into R2 at `key` and returns the bytes stored. 413 when the declared or the counted size
 * passes `maxBytes` (nothing is stored then), 422 when the body is empty.
 */
export async function storeUpload(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array> | null,
  declaredLength: number | null,
  maxBytes = IMPORT_MAX_BYTES,
): Promise<number> {
  if (declaredLength !== null && declaredLength > maxBytes) throw tooLarge();
  if (!body || declaredLength === 0) throw emptyFile();
  const seen = { bytes: 0 };
  const counted = body.pipeThrough(byteLimit(maxBytes, seen));
  const options = { httpMetadata: { contentType: 'text/csv' } };

  if (declaredLength !== null) {
    const fixed = new FixedLengthStream(declaredLength);
    const pump = counted.pipeTo(fixed.writable);
    const [put, piped] = await Promise.allSettled([bucket.put(key, fixed.readable, options), pump]);
    if (seen.bytes > maxBytes) throw tooLarge();
    if (piped.status === 'rejected') throw new ApiError(400, 'bad_request', `The upload was interrupted: ${String(piped.reason)}`);
    if (put.status === 'rejected') throw put.reason;
    return declaredLength;
  }

  const upload = await bucket.createMultipartUpload(key, options);
  try {
    const parts: R2UploadedPart[] = [];
    const part = new Uint8Array(PART_BYTES);
    let filled = 0;
    const reader = counted.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let at = 0;
      while (at < value.byteLength) {
        const n = Math.min(PART_BYTES - filled, value.byteLength - at);
        part.set(value.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === PART_BYTES) {
          parts.push(await upload.uploadPart(parts.length + 1, part));
          filled = 0;
        }
      }
    }
    if (seen.bytes === 0) throw emptyFile();
    if (filled > 0) parts.push(await upload.uploadPart(parts.length + 1, part.subarray(0, filled)));
    await upload.complete(parts);
    return seen.bytes;
  } catch (error) {
    await upload.abort().catch(() => undefined);
    if (seen.bytes > maxBytes) throw tooLarge();
    throw error;
  }
}
