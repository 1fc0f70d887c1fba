import type { Context } from 'hono';
import type { AppEnv } from '../../../context';
import type { contacts } from '../../../db/schema';
import type { ExportFormat } from '../../../shared/contracts/privacy';
import { recordActivity } from '../../activity-log/record';
import { movePersonMessages } from '../../ledger/move';
import { requestLedgers } from '../../ledger/request-ledger';
import { activityEntries } from './activity-entries';
import { archivedMessages } from './archived-messages';
import { contactSections } from './contact-section';
import { consentRecords, suppressionRecords, unsubscribeRecords } from './directory-records';
import type { ExportPart } from './export-parts';
import { exportSubject } from './export-subject';
import { htmlDocument } from './html-writer';
import { jsonDocument } from './json-writer';
import { ledgerMessages } from './ledger-messages';
import { textStream } from './text-stream';

type ContactRow = typeof contacts.$inferSelect;

const CONTENT_TYPES: Record<ExportFormat, string> = { json: 'application/json; charset=utf-8', html: 'text/html; charset=utf-8' };

/**
 * The sections of a contact's export, in order. The small D1 records are read now (a failure is still an error
 * answer); the activity log and the messages are read page by page while the answer is written.
 */
async function exportParts(c: Context<AppEnv>, contact: ContactRow): Promise<ExportPart[]> {
  const db = c.var.db;
  const subject = await exportSubject(db, c.env, c.var.org.id, contact.id);
  // Messages made before the ledger that the cron has not moved yet: into the ledger, where the export reads them.
  await movePersonMessages(c.env, db, subject.orgId, { contactId: subject.contactId, recipients: [...subject.recipients] });
  const [sections, consents, unsubscribes, suppressions, ledgers] = await Promise.all([
    contactSections(c, contact),
    consentRecords(db, subject),
    unsubscribeRecords(db, subject),
    suppressionRecords(db, subject),
    requestLedgers(c),
  ]);
  return [
    { key: 'exported_at', title: 'Exported at', value: new Date().toISOString() },
    { key: 'organization', title: 'Organisation', value: { id: c.var.org.id, name: c.var.org.name } },
    { key: 'contact', title: 'Contact', value: sections.contact },
    { key: 'subscriptions', title: 'Subscriptions', value: sections.subscriptions },
    { key: 'consents', title: 'Consent records', value: consents },
    { key: 'unsubscribes', title: 'Unsubscribes', value: unsubscribes },
    { key: 'suppressions', title: 'Suppressions', value: suppressions },
    { key: 'activity', title: 'Activity log', items: () => activityEntries(db, subject) },
    { key: 'messages', title: 'Messages', items: () => ledgerMessages(ledgers, subject) },
    { key: 'archived_messages', title: 'Archived messages', items: () => archivedMessages(c.env.FILES, ledgers, subject) },
  ];
}

/**
 * GET /contact/{id}/export: everything the organisation keeps of the contact (GDPR articles 15 and 20) as one JSON
 * document or a readable html page, streamed, as a download. The request is logged first (who asked, which format),
 * so the log shows it even when the download is cut off.
 */
export async function exportResponse(c: Context<AppEnv>, contact: ContactRow, format: ExportFormat): Promise<Response> {
  const parts = await exportParts(c, contact);
  await recordActivity(c, 'contact', contact.id, 'export', [{ field: 'format', previous: null, next: format }]);
  const pieces = format === 'json' ? jsonDocument(parts) : htmlDocument(parts, `Data held by ${c.var.org.name} about ${contact.name}`);
  return new Response(textStream(pieces), {
    headers: {
      'content-type': CONTENT_TYPES[format],
      'content-disposition': `attachment; filename="contact-${contact.id}-export.${format}"`,
      // Personal data: no shared cache may keep a copy.
      'cache-control': 'private, no-store',
    },
  });
}
