import type { ItemBody } from '@shared/errors';
import type { Template } from '@shared/contracts/template';
import type { ApiClient } from '../../lib/api-client';
import { downloadFile } from '../../lib/download-file';
import { TEMPLATE_PATH } from './api';

// Attachment uploads and downloads carry files, not JSON; they go through the API client's upload and download.

/** The attachment collection of a template. */
export const attachmentsPath = (templateId: number) => `${TEMPLATE_PATH}/${templateId}/attachment`;

/** Uploads files as multipart/form-data (`file` parts); the answer is the template with its new attachment list. */
export async function uploadAttachments(client: ApiClient, templateId: number, files: File[]): Promise<Template> {
  const answer = await client.upload<ItemBody<Template>>({
    path: attachmentsPath(templateId),
    body: () => {
      const form = new FormData();
      for (const file of files) form.append('file', file, file.name);
      return form;
    },
  });
  return answer.data;
}

/** Deletes one attachment. */
export async function deleteAttachment(client: ApiClient, templateId: number, attachmentId: number): Promise<void> {
  await client.delete(`${attachmentsPath(templateId)}/${attachmentId}`);
}

/** Downloads one attachment and hands it to the browser as a file with its own name. */
export async function downloadAttachment(client: ApiClient, templateId: number, attachment: { id: number; file_name: string }): Promise<void> {
  await downloadFile(client, `${attachmentsPath(templateId)}/${attachment.id}`, attachment.file_name);
}
