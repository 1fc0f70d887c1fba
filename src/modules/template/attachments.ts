import { and, asc, eq, inArray } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import type { Database } from '../../db/client';
import { templateAttachments, templates } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { notFound, validationFailed } from '../../lib/api-error';
import { deleteR2Prefix, orgFilesPrefix } from '../../lib/r2-prefix';
import { parseId } from '../../lib/validate';
import { ATTACHMENT_RULES, TEMPLATE_MESSAGES, type TemplateAttachment } from '../../shared/contracts/template';
import { recordActivity } from '../activity-log/record';
import { deleteOrgFiles, forgetFilesUnder, putOrgFile } from '../files/stored-files';
import { rowOr404 } from '../crud/rows';
import { multipartBoundary, MultipartError, readMultipart, type PartSink } from './multipart';

// Template attachments live in R2 under the organisation (orgs/{org}/templates/{template}/{uuid}) with a row
// each in template_attachments. Uploads are multipart/form-data with one or more `file` parts, streamed:
// one file at a time is held (at most 15,000,000 bytes), checked and written to R2. An upload with any
// unsupported or too large file stores nothing.

type Ctx = Context<AppEnv>;

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  txt: 'text/plain',
  csv: 'text/csv',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  svg: 'image/svg+xml',
  zip: 'application/zip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  json: 'application/json',
  xml: 'application/xml',
};

/** The R2 folder of one template's files. */
export const templateFolder = (orgId: number, templateId: number) => `${orgFilesPrefix(orgId)}templates/${templateId}/`;

/** The file's own name: no folders, no control characters, at most 255 characters. */
function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  return base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(-255);
}

const extensionOf = (name: string) => (/\.([^.]+)$/.exec(name)?.[1] ?? '').toLowerCase();

/** Attachments of these templates, by template id, for presenting a page of templates at once. */
export async function attachmentsByTemplate(db: Database, orgId: number, templateIds: number[]): Promise<Map<number, TemplateAttachment[]>> {
  const out = new Map<number, TemplateAttachment[]>();
  if (templateIds.length === 0) return out;
  const scope = new TenantScope(db, templateAttachments, orgId);
  const rows = await db
    .select()
    .from(templateAttachments)
    .where(scope.where(inArray(templateAttachments.templateId, templateIds)))
    .orderBy(asc(templateAttachments.id));
  for (const row of rows) {
    const list = out.get(row.templateId) ?? [];
    list.push({ id: row.id, file_name: row.fileName, size: row.size, content_type: row.contentType });
    out.set(row.templateId, list);
  }
  return out;
}

/**
 * Removes the R2 files of deleted templates (their rows went with the templates). A few templates are listed
 * one folder each; many at once by paging through the organisation's template folder, so a bulk delete costs
 * a couple of R2 calls per 1,000 files rather than one per template. Failures are logged, not raised: the
 * templates are gone either way, and a left-over file is never served again.
 */
export async function deleteTemplateFiles(bucket: R2Bucket, db: Database, orgId: number, templateIds: number[]): Promise<void> {
  const wanted = new Set(templateIds.map(String));
  const prefixes = templateIds.length <= 5 ? templateIds.map((id) => templateFolder(orgId, id)) : [`${orgFilesPrefix(orgId)}templates/`];
  try {
    for (const prefix of prefixes) await deleteR2Prefix(bucket, prefix, (key) => wanted.has(key.split('/')[3]));
    await forgetFilesUnder(
      db,
      orgId,
      templateIds.map((id) => templateFolder(orgId, id)),
    );
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', what: 'template files not deleted', orgId, templateIds: templateIds.slice(0, 100), error: String(error) }));
  }
}

interface Received {
  fileName: string;
  contentType: string;
  size: number;
  key: string | null;
  problem: 'unsupported' | 'too-large' | null;
}

/** Reads the upload part by part, storing each acceptable file in R2 as soon as it is complete. */
async function receiveFiles(c: Ctx, templateId: number): Promise<Received[]> {
  const boundary = multipartBoundary(c.req.header('content-type'));
  const body = c.req.raw.body;
  if (!boundary || !body) throw validationFailed({ attachments: [TEMPLATE_MESSAGES.noFiles] });
  const files: Received[] = [];
  const ignore: PartSink = { write() {}, end() {} };
  try {
    await readMultipart(body, boundary, (part) => {
      if (part.name !== 'file' || part.filename === null) return ignore;
      const fileName = cleanFileName(part.filename);
      if (!fileName) return ignore; // an empty file input
      const ext = extensionOf(fileName);
      const file: Received = { fileName, contentType: CONTENT_TYPES[ext] ?? '', size: 0, key: null, problem: null };
      files.push(file);
      if (!(ATTACHMENT_RULES.extensions as readonly string[]).includes(ext)) file.problem = 'unsupported';
      if (files.length > ATTACHMENT_RULES.maxFilesPerUpload) return ignore;
      let chunks: Uint8Array[] = [];
      return {
        write(chunk) {
          file.size += chunk.length;
          if (file.problem) return;
          if (file.size > ATTACHMENT_RULES.maxBytes) {
            file.problem = 'too-large';
            chunks = [];
            return;
          }
          chunks.push(chunk);
        },
        async end() {
          if (file.problem) return;
          const bytes = new Uint8Array(file.size);
          let at = 0;
          for (const chunk of chunks) {
            bytes.set(chunk, at);
            at += chunk.length;
          }
          chunks = [];
          const key = `${templateFolder(c.var.org.id, templateId)}${crypto.randomUUID()}`;
          await putOrgFile(c.env.FILES, c.var.db, c.var.org.id, 'attachment', key, bytes, { httpMetadata: { contentType: file.contentType } });
          file.key = key;
        },
      };
    });
  } catch (error) {
    await removeStored(c, files);
    if (error instanceof MultipartError) throw validationFailed({ attachments: [`The upload is not valid multipart/form-data: ${error.message}`] });
    throw error;
  }
  return files;
}

async function removeStored(c: Ctx, files: Received[]) {
  const keys = files.map((f) => f.key).filter((k): k is string => k !== null);
  await deleteOrgFiles(c.env.FILES, c.var.db, c.var.org.id, keys);
}

/** The problems of an upload in the spec's words, or [] when every file is fine. */
function uploadProblems(files: Received[]): string[] {
  if (files.length === 0) return [TEMPLATE_MESSAGES.noFiles];
  if (files.length > ATTACHMENT_RULES.maxFilesPerUpload) return [TEMPLATE_MESSAGES.tooManyFiles];
  const problems = files.filter((f) => f.problem === 'unsupported').map((f) => TEMPLATE_MESSAGES.unsupportedFile(f.fileName));
  const tooLarge = files.filter((f) => f.problem === 'too-large').map((f) => f.fileName);
  if (tooLarge.length) problems.push(TEMPLATE_MESSAGES.tooLarge(tooLarge));
  return problems;
}

async function attachmentOr404(c: Ctx, templateId: number) {
  const id = parseId(c.req.param('attachmentId'));
  const scope = new TenantScope(c.var.db, templateAttachments, c.var.org.id);
  const [row] = id ? await scope.selectWhere(and(eq(templateAttachments.id, id), eq(templateAttachments.templateId, templateId))).limit(1) : [];
  if (!row) throw notFound();
  return row;
}

/** `filename*` for Content-Disposition (RFC 6266), with an ASCII fallback. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * /template/{id}/attachment routes: upload (multipart), download and delete. `present` renders the template
 * after an upload so the console gets the new attachment list.
 */
export function attachmentRoutes(present: (c: Ctx, row: typeof templates.$inferSelect) => Promise<unknown>) {
  return new Hono<AppEnv>()
    .post('/:id/attachment', async (c) => {
      const template = await rowOr404(c, templates);
      const files = await receiveFiles(c, template.id);
      const problems = uploadProblems(files);
      if (problems.length) {
        await removeStored(c, files);
        throw validationFailed({ attachments: problems });
      }
      const scope = new TenantScope(c.var.db, templateAttachments, c.var.org.id);
      try {
        // 8 bound values a row: 12 rows per statement stays under D1's 100 parameters; one batch = one transaction.
        const statements = [];
        for (let i = 0; i < files.length; i += 12) {
          statements.push(
            c.var.db.insert(templateAttachments).values(
              files.slice(i, i + 12).map((f) => ({
                orgId: scope.orgId,
                templateId: template.id,
                fileName: f.fileName,
                fileKey: f.key!,
                contentType: f.contentType,
                size: f.size,
              })),
            ),
          );
        }
        await c.var.db.batch(statements as [(typeof statements)[0], ...typeof statements]);
      } catch (error) {
        await removeStored(c, files);
        throw error;
      }
      await recordActivity(c, 'template', template.id, 'update', [
        { field: 'attachments', previous: null, next: JSON.stringify(files.map((f) => f.fileName)) },
      ]);
      return c.json({ data: await present(c, template) }, 201);
    })
    .get('/:id/attachment/:attachmentId', async (c) => {
      const template = await rowOr404(c, templates);
      const attachment = await attachmentOr404(c, template.id);
      const object = await c.env.FILES.get(attachment.fileKey);
      if (!object) throw notFound();
      return new Response(object.body, {
        headers: {
          'content-type': attachment.contentType,
          'content-length': String(object.size),
          'content-disposition': contentDisposition(attachment.fileName),
          'x-content-type-options': 'nosniff',
          'cache-control': 'private, no-store',
        },
      });
    })
    .delete('/:id/attachment/:attachmentId', async (c) => {
      const template = await rowOr404(c, templates);
      const attachment = await attachmentOr404(c, template.id);
      await new TenantScope(c.var.db, templateAttachments, c.var.org.id).delete(eq(templateAttachments.id, attachment.id));
      await deleteOrgFiles(c.env.FILES, c.var.db, c.var.org.id, [attachment.fileKey]);
      await recordActivity(c, 'template', template.id, 'update', [{ field: 'attachments', previous: attachment.fileName, next: null }]);
      return c.json({ data: { deleted: 1 } });
    });
}
