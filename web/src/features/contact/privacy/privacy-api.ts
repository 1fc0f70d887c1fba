import type { Erasure, ExportFormat } from '@shared/contracts/privacy';
import type { ItemBody } from '@shared/errors';
import type { ApiClient } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download-file';

// A person's data requests on the contact's path (issue 40, src/modules/privacy): the export download and the erasure.

export const contactExportPath = (contactId: number, format: ExportFormat) => `/contact/${contactId}/export?format=${format}`;

/** Downloads the contact's export as the browser's file (the answer is streamed; the file arrives whole). */
export function downloadContactExport(client: ApiClient, contactId: number, format: ExportFormat): Promise<void> {
  return downloadFile(client, contactExportPath(contactId, format), `contact-${contactId}-export.${format}`);
}

/** Erases the contact, confirmed by one of its addresses as typed; answers what the erasure reached. */
export function eraseContact(client: ApiClient, contactId: number, confirm: string): Promise<Erasure> {
  return client.post<ItemBody<Erasure>>(`/contact/${contactId}/erase`, { confirm }).then((body) => body.data);
}
