import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts, type messages, templates } from '../../db/schema';
import type { Env } from '../../env';
import { loadContactPlaceholders } from '../../lib/templating/placeholders';
import { prepareTemplate } from '../../lib/templating/render-template';
import { unsubscribeUrl } from '../../lib/templating/unsubscribe-link';
import type { BroadcastSnapshot } from '../broadcast/snapshot';

type Row = typeof messages.$inferSelect;

export interface MessageContent {
  body: string;
  body_plain: string | null;
  html: boolean;
}

/**
 * The content of one message for its view: a test message's stored body, or a broadcast message rendered
 * again from the broadcast's frozen template for its contact (rows keep no body: the ledger would fill up). The
 * contact's current data is used; a render error is shown as the content rather than failing the request.
 */
export async function messageContent(env: Env, db: Database, row: Row): Promise<MessageContent> {
  if (row.broadcastId === null) {
    const [template] = row.templateId
      ? await db
          .select({ type: templates.type })
          .from(templates)
          .where(and(eq(templates.id, row.templateId), eq(templates.orgId, row.orgId)))
      : [];
    return {
      body: row.body,
      body_plain: row.bodyPlain,
      html: row.type === 'email' && (template ? template.type !== 'text' : /<[a-z][\s\S]*>/i.test(row.body)),
    };
  }
  const [b] = await db
    .select({ snapshot: broadcasts.snapshot })
    .from(broadcasts)
    .where(and(eq(broadcasts.id, row.broadcastId), eq(broadcasts.orgId, row.orgId)));
  const snapshot = b?.snapshot as BroadcastSnapshot | null | undefined;
  if (!snapshot) return { body: '', body_plain: null, html: false };
  const html = row.type === 'email' && snapshot.template.type !== 'text';
  try {
    const contact = row.contactId ? await loadContactPlaceholders(db, row.orgId, row.contactId) : null;
    const render = prepareTemplate({
      type: snapshot.template.type,
      subject: snapshot.template.subject,
      body: snapshot.template.body,
      bodyPlain: snapshot.template.body_plain,
    });
    const link = await unsubscribeUrl(env, snapshot.organization.domain, {
      orgId: row.orgId,
      contactId: row.contactId,
      messageId: row.id,
      broadcastId: row.broadcastId,
    });
    const rendered = render({ contact: contact ?? {}, organization: snapshot.organization, unsubscribe_url: link });
    return { body: rendered.body, body_plain: rendered.body_plain, html };
  } catch (error) {
    return { body: error instanceof Error ? error.message : String(error), body_plain: null, html: false };
  }
}
