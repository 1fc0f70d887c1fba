import type { Context } from 'hono';
import type { AppEnv } from '../../../context';
import type { contacts } from '../../../db/schema';
import { ApiError } from '../../../lib/api-error';
import type { ExportFormat } from '../../../shared/contracts/privacy';

// PLACEHOLDER (replaced by the export's own files before this lands): the streamed export of a contact.
export async function exportResponse(_c: Context<AppEnv>, _contact: typeof contacts.$inferSelect, _format: ExportFormat): Promise<Response> {
  throw new ApiError(503, 'internal_error', 'Export is being built');
}
