import type { ItemBody } from '@shared/errors';
import type { Template } from '@shared/contracts/template';
import { downloadFile, rawFailure, sendRaw, type RawServices as Raw } from '../../lib/raw-request';
import { TEMPLATE_PATH } from './api';

// Attachment uploads and downloads carry files, not JSON: they go through the raw requests of lib/raw-request.

/** The attachment collection of a template. */
export const attachmentsPath = (templateId: number) => `${TEMPLATE_PATH}/${templateId}/attachment`;

/** Uploads files as multipart/form-data (`file` parts); the answer is the template with its new attachment list. */
export async function uploadAttachments(services: Raw, templateId: number, files: File[]): Promise<Template> {
  const path = attachmentsPath(templateId);
  const response = await sendRaw(services, 'POST', path, () => {
    const form = new FormData();
    for (const file of files) form.append('file', file, file.name);
    return form;
  });
  if (!response.ok) throw await rawFailure(response, `POST ${path}`);
  return ((await response.json()) as ItemBody<Template>).data;
}

/** Deletes one attachment. */
export async function deleteAttachment(services: Raw, templateId: number, attachmentId: number): Promise<void> {
  await services.client.delete(`${attachmentsPath(templateId)}/${attachmentId}`);
}

/** Downloads one attachment and hands it to the browser as a file with its own name. */
export async function downloadAttachment(services: Raw, templateId: number, attachment: { id: number; file_name: string }): Promise<void> {
  await downloadFile(services, `${attachmentsPath(templateId)}/${attachment.id}`, attachment.file_name);
}
