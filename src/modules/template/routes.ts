import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../context';
import { templates } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { htmlToText } from '../../lib/mime/html-to-text';
import { templateSyntaxErrors } from '../../lib/templating/render-template';
import { validJson } from '../../lib/validate';
import {
  hasSubject,
  TEMPLATE_MESSAGES,
  TEMPLATE_TYPES,
  templateInputSchema,
  templatePreviewSchema,
  templateUpdateSchema,
  testMessageSchema,
  type Template,
  type TemplateInput,
  type TemplateListItem,
  type TemplatePreview,
  type TemplateType,
  type TemplateUpdate,
} from '../../shared/contracts/template';
import { crudRoutes } from '../crud/crud-routes';
import { rowOr404 } from '../crud/rows';
import { attachmentRoutes, attachmentsByTemplate, deleteTemplateFiles } from './attachments';
import { renderForRequest, scopeForContact } from './render-for';
import { sendTestMessage } from './test-message';

type Ctx = Context<AppEnv>;
type Row = typeof templates.$inferSelect;
type Input = TemplateInput & TemplateUpdate;

/** Column values of a write; a subject exists on html and email templates, a plain body on email templates only. */
function columns(type: TemplateType, input: Partial<Input>): Partial<typeof templates.$inferInsert> {
  const out: Partial<typeof templates.$inferInsert> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.alias !== undefined) out.alias = input.alias;
  if (input.note !== undefined) out.note = input.note;
  if (input.body !== undefined) out.body = input.body;
  if (!hasSubject(type)) out.subject = null;
  else if (input.subject !== undefined) out.subject = input.subject;
  if (type !== 'email') out.bodyPlain = null;
  else if (input.body_plain !== undefined) out.bodyPlain = input.body_plain;
  return out;
}

async function presentTemplates(c: Ctx, rows: Row[], withBodies: boolean): Promise<(Template | TemplateListItem)[]> {
  const files = await attachmentsByTemplate(
    c.var.db,
    c.var.org.id,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const item: TemplateListItem = {
      id: row.id,
      type: row.type as TemplateType,
      name: row.name,
      alias: row.alias,
      note: row.note,
      subject: row.subject,
      attachments: files.get(row.id) ?? [],
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    };
    return withBodies ? { ...item, body: row.body, body_plain: row.bodyPlain } : item;
  });
}

const presentOne = async (c: Ctx, row: Row) => (await presentTemplates(c, [row], true))[0] as Template;

const crud = crudRoutes<typeof templates, Input, Template | TemplateListItem>({
  table: templates,
  input: templateInputSchema,
  updateInput: templateUpdateSchema,
  sortable: {
    updated_at: templates.updatedAt,
    created_at: templates.createdAt,
    id: templates.id,
    name: templates.name,
    alias: templates.alias,
    type: templates.type,
  },
  defaultSort: { key: 'updated_at', order: 'desc' },
  search: [templates.name, templates.alias, templates.note, templates.subject],
  filters: {
    shape: { type: z.enum(TEMPLATE_TYPES, { error: TEMPLATE_MESSAGES.type }).optional() },
    where: (f) => [f.type ? eq(templates.type, f.type as string) : undefined],
  },
  audit: 'template',
  // A template that does not parse is refused on save, on the field that holds the error.
  validate: async (_c, input, existing) => {
    const type = (existing?.type ?? input.type) as TemplateType;
    const errors = templateSyntaxErrors({
      body: input.body,
      ...(hasSubject(type) ? { subject: input.subject } : {}),
      ...(type === 'email' ? { body_plain: input.body_plain } : {}),
    });
    if (Object.keys(errors).length) throw validationFailed(errors);
  },
  write: {
    create: async (c, input) => {
      const values = columns(input.type, input);
      const [row] = await new TenantScope(c.var.db, templates, c.var.org.id).insert({ ...values, type: input.type, name: input.name, body: input.body });
      return row;
    },
    update: async (c, existing, input) => {
      const scope = new TenantScope(c.var.db, templates, c.var.org.id);
      const [row] = await scope.update(eq(templates.id, existing.id), {
        ...columns(existing.type as TemplateType, input),
        updatedAt: new Date().toISOString(),
      });
      return row;
    },
  },
  afterDelete: (c, ids) => deleteTemplateFiles(c.env.FILES, c.var.db, c.var.org.id, ids),
  // Only a single template carries the bodies (they can be large), not the list.
  present: (c, rows) => presentTemplates(c, rows, !(c.req.method === 'GET' && !c.req.param('id'))),
});

/** /template: the shared contract, plus preview, test message and attachments. */
export const templateRoutes = new Hono<AppEnv>()
  .post('/:id/preview', validJson(templatePreviewSchema), async (c) => {
    const template = await rowOr404(c, templates);
    const rendered = renderForRequest(template, await scopeForContact(c, c.req.valid('json').contact_id));
    // The plain text mail clients get: the template's own, or the one the mail builder derives from the html.
    const derived = template.type !== 'text' && !rendered.body_plain?.trim() ? htmlToText(rendered.body) : rendered.body_plain;
    const data: TemplatePreview = { ...rendered, body_plain: derived };
    return c.json({ data });
  })
  .post('/:id/test', validJson(testMessageSchema), async (c) => sendTestMessage(c, await rowOr404(c, templates), c.req.valid('json')))
  .route('/', attachmentRoutes(presentOne))
  .route('/', crud);
