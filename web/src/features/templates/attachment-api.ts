import type { ErrorBody, ItemBody } from '@shared/errors';
import type { Template } from '@shared/contracts/template';
import { ApiError } from '../../lib/api-error';
import type { Services } from '../../lib/services';
import { TEMPLATE_PATH } from './api';

// Attachment uploads and downloads carry files, not JSON, so they go around the JSON client, with the same
// headers, bearer and one refresh-and-retry on a 401.

type Raw = Pick<Services, 'client' | 'session'>;

/** The attachment collection of a template. */
export const attachmentsPath = (templateId: number) => `${TEMPLATE_PATH}/${templateId}/attachment`;

async function sendRaw(services: Raw, method: 'GET' | 'POST' | 'DELETE', path: string, body?: () => BodyInit): Promise<Response> {
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

async function failure(response: Response, key: string): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as Partial<ErrorBody> | null;
  return new ApiError({
    status: response.status,
    code: body?.error?.code ?? 'unknown',
    message: body?.error?.message || response.statusText || `HTTP ${response.status}`,
    fields: body?.error?.fields,
    requestKey: key,
  });
}

/** Uploads files as multipart/form-data (`file` parts); the answer is the template with its new attachment list. */
export async function uploadAttachments(services: Raw, templateId: number, files: File[]): Promise<Template> {
  const path = attachmentsPath(templateId);
  const response = await sendRaw(services, 'POST', path, () => {
    const form = new FormData();
    for (const file of files) form.append('file', file, file.name);
    return form;
  });
  if (!response.ok) throw await failure(response, `POST ${path}`);
  return ((await response.json()) as ItemBody<Template>).data;
}

/** Deletes one attachment. */
export async function deleteAttachment(services: Raw, templateId: number, attachmentId: number): Promise<void> {
  await services.client.delete(`${attachmentsPath(templateId)}/${attachmentId}`);
}

/** Downloads one attachment and hands it to the browser as a file with its own name. */
export async function downloadAttachment(services: Raw, templateId: number, attachment: { id: number; file_name: string }): Promise<void> {
  const path = `${attachmentsPath(templateId)}/${attachment.id}`;
  const response = await sendRaw(services, 'GET', path);
  if (!response.ok) throw await failure(response, `GET ${path}`);
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = attachment.file_name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
