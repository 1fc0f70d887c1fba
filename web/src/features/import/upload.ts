import type { ItemBody } from '@shared/errors';
import type { ImportUpload } from '@shared/contracts/import';
import type { ApiClient, Transport } from '../../lib/api-client';

/** The upload endpoint (src/shared/contracts/import.ts): the raw CSV body, its name in the query. */
export const IMPORT_UPLOAD_PATH = '/import/upload';

/**
 * A transport over XMLHttpRequest, because fetch cannot report upload progress (and streaming fetch bodies need
 * HTTP/2). It answers a Response like fetch does; `createRequest` is a stand-in in tests.
 */
export function xhrTransport(onProgress: (fraction: number) => void, createRequest: () => XMLHttpRequest = () => new XMLHttpRequest()): Transport {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const xhr = createRequest();
      xhr.open(init.method ?? 'POST', url);
      for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) xhr.setRequestHeader(name, value);
      onProgress(0);
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => resolve(new Response(xhr.responseText || null, { status: xhr.status, headers: responseHeaders(xhr) }));
      xhr.onerror = () => reject(new TypeError('Upload failed'));
      xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
      // The File goes as the body: the browser streams it from disk, it is never read into memory here.
      xhr.send(init.body as XMLHttpRequestBodyInit);
    });
}

function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of (xhr.getAllResponseHeaders?.() ?? '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * Uploads the CSV to the worker (POST /import/upload?file_name=...) with upload progress (0..1), through the API
 * client like every other call (waits for a running refresh, one retry after a 401, logout after a second).
 */
export async function uploadImportFile(
  client: ApiClient,
  file: File,
  onProgress: (fraction: number) => void,
  options: { createRequest?: () => XMLHttpRequest } = {},
): Promise<ImportUpload> {
  const answer = await client.upload<ItemBody<ImportUpload>>({
    path: IMPORT_UPLOAD_PATH,
    query: { file_name: file.name },
    contentType: 'text/csv',
    body: () => file,
    transport: xhrTransport(onProgress, options.createRequest),
  });
  return answer.data;
}
