import type { ErrorBody } from '@shared/errors';
import { ApiError } from './api-error';
import type { Services } from './services';

// Requests that carry files rather than JSON (uploads, downloads) go around the JSON client, with the same
// headers, bearer and one refresh-and-retry on a 401.

export type RawServices = Pick<Services, 'client' | 'session'>;

export async function sendRaw(services: RawServices, method: 'GET' | 'POST' | 'DELETE', path: string, body?: () => BodyInit): Promise<Response> {
  const { client, session } = services;
  const attempt = () => {
    const headers: Record<string, string> = client.baseHeaders();
    const authorization = session.authorization();
    if (authorization) headers[authorization.header] = authorization.value;
    return fetch(client.url(path), { method, headers, body: body?.() });
  };
  const token = session.accessToken();
  let response = await attempt();
  if (response.status === 401 && (await session.renew(token))) response = await attempt();
  return response;
}

/** The ApiError of a failed raw answer (its JSON error body when it has one). */
export async function rawFailure(response: Response, key: string): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as Partial<ErrorBody> | null;
  return new ApiError({
    status: response.status,
    code: body?.error?.code ?? 'unknown',
    message: body?.error?.message || response.statusText || `HTTP ${response.status}`,
    fields: body?.error?.fields,
    requestKey: key,
  });
}

/** GETs `path` and hands the answer to the browser as a file named `fileName`. */
export async function downloadFile(services: RawServices, path: string, fileName: string): Promise<void> {
  const response = await sendRaw(services, 'GET', path);
  if (!response.ok) throw await rawFailure(response, `GET ${path}`);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
