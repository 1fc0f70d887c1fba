import type { ErrorBody, ItemBody } from '@shared/errors';
import type { ImportUpload } from '@shared/contracts/import';
import { ApiError } from '../../lib/api-error';
import type { ApiClient, AuthController } from '../../lib/api-client';

/** The upload endpoint (src/shared/contracts/import.ts): the raw CSV body, its name in the query. */
export const IMPORT_UPLOAD_PATH = '/import/upload';

export interface UploadDeps {
  client: ApiClient;
  auth: Pick<AuthController, 'authorization' | 'accessToken' | 'renew'>;
  /** Creates the request (XMLHttpRequest in the browser; a stand-in in tests). */
  createRequest?: () => XMLHttpRequest;
}

interface Sent {
  status: number;
  body: unknown;
}

function send(deps: UploadDeps, url: string, file: Blob, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const xhr = deps.createRequest?.() ?? new XMLHttpRequest();
    xhr.open('POST', url);
    const headers: Record<string, string> = { ...deps.client.baseHeaders(), 'Content-Type': 'text/csv' };
    const authorization = deps.auth.authorization();
    if (authorization) headers[authorization.header] = authorization.value;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        body = xhr.responseText;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, code: 'network_error', message: 'Upload failed', requestKey: `POST ${url}` }));
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    // The File goes as the body: the browser streams it from disk, it is never read into memory here.
    xhr.send(file);
  });
}

/**
 * Uploads the CSV to the worker (POST /import/upload?file_name=...) with upload progress (0..1). XMLHttpRequest
 * because fetch cannot report upload progress (and streaming fetch bodies need HTTP/2). A 401 renews the
 * session once and retries, as every other call does.
 */
export async function uploadImportFile(deps: UploadDeps, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ImportUpload> {
  const url = deps.client.url(IMPORT_UPLOAD_PATH, { file_name: file.name });
  let sent = await send(deps, url, file, onProgress, signal);
  if (sent.status === 401 && (await deps.auth.renew(deps.auth.accessToken()))) {
    onProgress(0);
    sent = await send(deps, url, file, onProgress, signal);
  }
  if (sent.status >= 200 && sent.status < 300) return (sent.body as ItemBody<ImportUpload>).data;
  const error = (sent.body as Partial<ErrorBody> | null)?.error;
  throw new ApiError({
    status: sent.status,
    code: error?.code ?? 'unknown',
    message: error?.message ?? `HTTP ${sent.status}`,
    fields: error?.fields,
    requestKey: `POST ${url}`,
  });
}
