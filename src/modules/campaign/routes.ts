import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { campaignSettings, campaigns, senders, templates } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { campaignInputSchema, type Campaign, type CampaignInput, type CampaignSetting } from '../../shared/contracts/campaign';
import { addressError } from '../../shared/address';
import type { SenderType } from '../../shared/contracts/sender';
import { senderFitsTemplate, senderMismatchMessage, TEMPLATE_MESSAGES, type TemplateType } from '../../shared/contracts/template';
import { crudRoutes } from '../crud/crud-routes';

type Ctx = Context<AppEnv>;
type Row = typeof campaigns.$inferSelect;

/** Every entry's template and sender belong to the organisation and fit each other; to_address fits the sender type. */
async function validateSettings(c: Ctx, input: Partial<CampaignInput>) {
  if (!input.settings) return;
  const orgId = c.var.org.id;
  const templateScope = new TenantScope(c.var.db, templates, orgId);
  const senderScope = new TenantScope(c.var.db, senders, orgId);
  const [templateRows, senderRows] = await c.var.db.batch([
    c.var.db
      .select({ id: templates.id, type: templates.type })
      .from(templates)
      .where(templateScope.where(templateScope.idIn(input.settings.map((s) => s.template_id)))),
    c.var.db
      .select({ id: senders.id, type: senders.type })
      .from(senders)
      .where(senderScope.where(senderScope.idIn(input.settings.map((s) => s.sender_id)))),
  ]);
  const templateType = new Map(templateRows.map((t) => [t.id, t.type as TemplateType]));
  const senderType = new Map(senderRows.map((s) => [s.id, s.type as SenderType]));
  const errors: Record<string, string[]> = {};
  input.settings.forEach((setting, i) => {
    const tType = templateType.get(setting.template_id);
    const sType = senderType.get(setting.sender_id);
    if (!tType) errors[`settings.${i}.template_id`] = [TEMPLATE_MESSAGES.templateNotFound];
    if (!sType) errors[`settings.${i}.sender_id`] = [TEMPLATE_MESSAGES.senderNotFound];
    if (tType && sType && !senderFitsTemplate(tType, sType)) errors[`settings.${i}.sender_id`] = [senderMismatchMessage(tType)];
    if (sType && setting.to_address) {
      const problem = addressError(sType, setting.to_address);
      if (problem) errors[`settings.${i}.to_address`] = [problem];
    }
  });
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** The statements that write a campaign's settings, in order, for the campaign `campaignId` (a number or SQL). */
function insertSettings(c: Ctx, campaignId: number | SQL, settings: CampaignInput['settings']) {
  const rows = settings.map((s, position) => ({
    orgId: c.var.org.id,
    campaignId: campaignId as number,
    templateId: s.template_id,
    senderId: s.sender_id,
    toAddress: s.to_address ?? null,
    position,
  }));
  // At most 7 bound values a row (the campaign may be a subquery): 14 rows stay under D1's 100 parameters.
  const statements = [];
  for (let i = 0; i < rows.length; i += 14) statements.push(c.var.db.insert(campaignSettings).values(rows.slice(i, i + 14)));
  return statements;
}

async function presentCampaigns(c: Ctx, rows: Row[]): Promise<Campaign[]> {
  const ids = rows.map((r) => r.id);
  const scope = new TenantScope(c.var.db, campaignSettings, c.var.org.id);
  const settings = ids.length
    ? await c.var.db
        .select({
          campaignId: campaignSettings.campaignId,
          templateId: campaignSettings.templateId,
          senderId: campaignSettings.senderId,
          toAddress: campaignSettings.toAddress,
          templateName: templates.name,
          templateType: templates.type,
          senderValue: senders.value,
          senderName: senders.name,
          senderType: senders.type,
        })
        .from(campaignSettings)
        .leftJoin(templates, sql`${templates.id} = ${campaignSettings.templateId} AND ${templates.orgId} = ${campaignSettings.orgId}`)
        .leftJoin(senders, sql`${senders.id} = ${campaignSettings.senderId} AND ${senders.orgId} = ${campaignSettings.orgId}`)
        .where(scope.where(inArray(campaignSettings.campaignId, ids)))
        .orderBy(asc(campaignSettings.position), asc(campaignSettings.id))
    : [];
  const byCampaign = new Map<number, CampaignSetting[]>();
  for (const s of settings) {
    const list = byCampaign.get(s.campaignId) ?? [];
    list.push({
      template_id: s.templateId,
      sender_id: s.senderId,
      to_address: s.toAddress,
      template: s.templateName === null ? null : { id: s.templateId, name: s.templateName, type: s.templateType as TemplateType },
      sender: s.senderValue === null ? null : { id: s.senderId, value: s.senderValue, name: s.senderName, type: s.senderType as SenderType },
    });
    byCampaign.set(s.campaignId, list);
  }
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    alias: row.alias,
    note: row.note,
    settings: byCampaign.get(row.id) ?? [],
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}

/** /campaign: the shared contract; a campaign and its settings are written together in one D1 batch. */
export const campaignRoutes = crudRoutes<typeof campaigns, CampaignInput, Campaign>({
  table: campaigns,
  input: campaignInputSchema,
  sortable: {
    created_at: campaigns.createdAt,
    updated_at: campaigns.updatedAt,
    id: campaigns.id,
    name: campaigns.name,
    alias: campaigns.alias,
  },
  defaultSort: { key: 'created_at', order: 'desc' },
  search: [campaigns.name, campaigns.alias, campaigns.note],
  audit: 'campaign',
  validate: validateSettings,
  write: {
    create: async (c, input) => {
      const orgId = c.var.org.id;
      // In the same transaction the newest campaign of the organisation is the one just inserted.
      const newest = sql`(SELECT MAX(${campaigns.id}) FROM ${campaigns} WHERE ${campaigns.orgId} = ${orgId})`;
      const [inserted] = await c.var.db.batch([
        c.var.db
          .insert(campaigns)
          .values({ orgId, name: input.name, alias: input.alias ?? null, note: input.note ?? null })
          .returning({ id: campaigns.id }),
        ...insertSettings(c, newest, input.settings),
      ]);
      return inserted[0].id;
    },
    update: async (c, existing, input) => {
      const id = existing.id;
      const scope = new TenantScope(c.var.db, campaigns, c.var.org.id);
      const settingsScope = new TenantScope(c.var.db, campaignSettings, c.var.org.id);
      const values: Partial<typeof campaigns.$inferInsert> = { updatedAt: new Date().toISOString() };
      if (input.name !== undefined) values.name = input.name;
      if (input.alias !== undefined) values.alias = input.alias;
      if (input.note !== undefined) values.note = input.note;
      const update = c.var.db
        .update(campaigns)
        .set(values)
        .where(scope.where(eq(campaigns.id, id)));
      if (!input.settings) {
        await update;
        return;
      }
      await c.var.db.batch([
        update,
        c.var.db.delete(campaignSettings).where(settingsScope.where(eq(campaignSettings.campaignId, id))),
        ...insertSettings(c, id, input.settings),
      ]);
    },
  },
  present: presentCampaigns,
});
