import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { organizations, senders, templateAttachments, templates } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { orgFilesPrefix } from '../../lib/r2-prefix';
import { putOrgFile } from '../files/stored-files';
import { TEMPLATE_MESSAGES, type TemplateType } from '../../shared/contracts/template';
import { compileTracking, type CompiledTracking, type TrackingOptions } from '../tracking/compile';

// What a broadcast sends, frozen when it starts: the template (subject, body, plain body, attachments), the
// sender and the organisation's name. Editing or deleting the template afterwards changes nothing underway;
// attachments are copied to the broadcast's own folder in R2 for the same reason. An html template's tracking is
// compiled here, once for every recipient (src/modules/tracking/compile.ts).

export interface BroadcastSnapshot {
  template: {
    id: number;
    name: string;
    type: TemplateType;
    subject: string | null;
    body: string;
    body_plain: string | null;
    attachments: { file_name: string; file_key: string; content_type: string; size: number }[];
  };
  sender: { id: number; type: string; value: string; name: string | null; integration_id: number };
  organization: { name: string; domain: string };
  /** The html template with its links found and marked for tracking; absent for text templates (and snapshots before Nov 2026). */
  tracking?: CompiledTracking;
}

/** The broadcast's own R2 folder (under the organisation's, so deleting the account removes it). */
export const broadcastFolder = (orgId: number, broadcastId: number) => `${orgFilesPrefix(orgId)}broadcasts/${broadcastId}/`;

/**
 * Freezes the template and sender of a broadcast; null (with the reason) when one of them is gone. Copies the
 * attachments under keys named by the attachment id, so running it again overwrites rather than piles up.
 */
export async function takeSnapshot(
  db: Database,
  files: R2Bucket,
  orgId: number,
  broadcastId: number,
  templateId: number | null,
  senderId: number | null,
  tracking: TrackingOptions,
): Promise<{ snapshot: BroadcastSnapshot } | { problem: string }> {
  const template = templateId ? await new TenantScope(db, templates, orgId).findById(templateId) : undefined;
  if (!template) return { problem: 'The template of this broadcast was deleted' };
  if (template.type !== 'text' && !template.subject?.trim()) return { problem: TEMPLATE_MESSAGES.noSubject };
  const sender = senderId ? await new TenantScope(db, senders, orgId).findById(senderId) : undefined;
  if (!sender) return { problem: 'The sender of this broadcast was deleted' };
  const [org] = await db.select({ name: organizations.name, domain: organizations.domain }).from(organizations).where(eq(organizations.id, orgId));
  const stored = await new TenantScope(db, templateAttachments, orgId)
    .selectWhere(eq(templateAttachments.templateId, template.id))
    .orderBy(asc(templateAttachments.id));
  const attachments: BroadcastSnapshot['template']['attachments'] = [];
  for (const file of stored) {
    const object = await files.get(file.fileKey);
    if (!object) return { problem: `The attachment ${file.fileName} is missing from storage` };
    const key = `${broadcastFolder(orgId, broadcastId)}${file.id}`;
    await putOrgFile(files, db, orgId, 'snapshot', key, object.body, { httpMetadata: { contentType: file.contentType } });
    attachments.push({ file_name: file.fileName, file_key: key, content_type: file.contentType, size: file.size });
  }
  const type = template.type as TemplateType;
  const compiled = type === 'text' ? undefined : await compileTracking(template.body, tracking, true);
  return {
    snapshot: {
      template: {
        id: template.id,
        name: template.name,
        type,
        subject: template.subject,
        body: template.body,
        body_plain: template.bodyPlain,
        attachments,
      },
      sender: { id: sender.id, type: sender.type, value: sender.value, name: sender.name, integration_id: sender.integrationId },
      organization: { name: org?.name ?? '', domain: org?.domain ?? '' },
      ...(compiled ? { tracking: compiled } : {}),
    },
  };
}
