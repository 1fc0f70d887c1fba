import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts, organizations, senders, templateAttachments, templates } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import type { Env } from '../../env';
import { loadContactPlaceholdersMany } from '../../lib/templating/placeholders';
import { prepareTemplate, TemplateRenderError, type TemplateRenderer } from '../../lib/templating/render-template';
import { unsubscribeUrl } from '../../lib/templating/unsubscribe-link';
import type { OutgoingAttachment, OutgoingMessage } from '../../lib/transport/types';
import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES } from '../../shared/contracts/template';
import { orgOrigin } from '../../lib/org-url';
import { addressKey, blacklistedAmong } from '../blacklist/lookup';
import { addTracking, type TrackingOptions } from '../tracking/rewrite';
import { sendTimeSkips } from './send-time-skips';
import type { BroadcastSnapshot } from '../broadcast/snapshot';

// Claimed message rows -> what the transport sends. A test message carries its rendered body in the row; a
// broadcast message is rendered here, per recipient, from the broadcast's frozen snapshot (its row keeps no
// body). Whatever cannot be sent (sender gone, blacklisted since, render error) becomes a permanent failure.

/** A message row as the claim returned it (snake_case columns). */
export interface ClaimedMessage {
  id: number;
  org_id: number;
  type: 'email' | 'sms';
  status: string;
  sender_id: number | null;
  template_id: number | null;
  contact_id: number | null;
  broadcast_id: number | null;
  from_address: string;
  from_name: string | null;
  to_address: string;
  subject: string | null;
  body: string;
  body_plain: string | null;
  attempts: number;
}

/** The columns of a claimed message that composing and recording read (the claim answers only these). */
export const CLAIMED_COLUMNS = [
  'id', 'org_id', 'type', 'status', 'sender_id', 'template_id', 'contact_id', 'broadcast_id',
  'from_address', 'from_name', 'to_address', 'subject', 'body', 'body_plain', 'attempts',
] as const satisfies readonly (keyof ClaimedMessage)[];

export type Composed =
  | { row: ClaimedMessage; integrationId: number; message: OutgoingMessage }
  | { row: ClaimedMessage; failure: string }
  /** Not sent and not failed: left out just before sending (see send-time-skips.ts). */
  | { row: ClaimedMessage; skip: string };

interface BroadcastForSending {
  snapshot: BroadcastSnapshot;
  doNotUnsubscribe: boolean;
  subscriptionId: number | null;
  skipUnsubscribed: boolean;
  tracking: TrackingOptions;
  render: TemplateRenderer | TemplateRenderError;
}

/** An email's attachments are read into memory to be sent: above this the send fails rather than the worker. */
export const MAX_EMAIL_ATTACHMENT_BYTES = 40_000_000;
/** The error of a message whose address is on the blacklist. */
export const BLACKLISTED = 'Not sent: the address is on the blacklist';

/** Everything one invocation reads once and reuses across batches: snapshots, parsed templates, files. */
export class ComposeCache {
  broadcasts = new Map<number, BroadcastForSending | null>();
  files = new Map<string, Promise<Uint8Array | null>>();
  organizations = new Map<number, Promise<{ domain: string; tracking: TrackingOptions } | undefined>>();

  /** The organisation's host and tracking defaults (test messages follow them). */
  organization(db: Database, orgId: number) {
    let org = this.organizations.get(orgId);
    if (!org) {
      org = db
        .select({ domain: organizations.domain, opens: organizations.trackOpens, clicks: organizations.trackClicks })
        .from(organizations)
        .where(eq(organizations.id, orgId))
        .then(([o]) => (o ? { domain: o.domain, tracking: { opens: o.opens, clicks: o.clicks } } : undefined));
      this.organizations.set(orgId, org);
    }
    return org;
  }

  file(env: Env, key: string): Promise<Uint8Array | null> {
    let file = this.files.get(key);
    if (!file) {
      file = env.FILES.get(key).then(async (object) => (object ? new Uint8Array(await object.arrayBuffer()) : null));
      this.files.set(key, file);
    }
    return file;
  }
}

/** Builds the outgoing messages of a batch of claimed rows of one organisation. */
export async function composeBatch(env: Env, db: Database, orgId: number, rows: ClaimedMessage[], cache: ComposeCache): Promise<Composed[]> {
  const blacklisted = await blacklistedAmong(
    db,
    orgId,
    rows.filter((r) => r.to_address).map((r) => ({ type: r.type === 'sms' ? 'phone' : 'email', value: r.to_address })),
  );
  const isBlocked = (r: ClaimedMessage) => blacklisted.has(addressKey(r.type === 'sms' ? 'phone' : 'email', r.to_address));
  const forBroadcast = rows.filter((r) => r.broadcast_id !== null);
  const single = rows.filter((r) => r.broadcast_id === null);
  const composed = [
    ...(await composeBroadcastRows(env, db, orgId, forBroadcast, cache)),
    ...(await Promise.all(single.map((r) => composeStoredRow(env, db, r, cache)))),
  ];
  return composed.map((c) => ('message' in c && isBlocked(c.row) ? { row: c.row, failure: BLACKLISTED } : c));
}

/** The broadcast's snapshot and parsed template, read once per invocation. */
async function broadcastOf(db: Database, orgId: number, id: number, cache: ComposeCache) {
  if (!cache.broadcasts.has(id)) {
    const [b] = await db
      .select({
        snapshot: broadcasts.snapshot,
        doNotUnsubscribe: broadcasts.doNotUnsubscribe,
        subscriptionId: broadcasts.subscriptionId,
        skipUnsubscribed: broadcasts.skipUnsubscribed,
        trackOpens: broadcasts.trackOpens,
        trackClicks: broadcasts.trackClicks,
      })
      .from(broadcasts)
      .where(and(eq(broadcasts.id, id), eq(broadcasts.orgId, orgId)));
    const snapshot = b?.snapshot as BroadcastSnapshot | null | undefined;
    let render: TemplateRenderer | TemplateRenderError | null = null;
    if (snapshot) {
      try {
        render = prepareTemplate({ type: snapshot.template.type, subject: snapshot.template.subject, body: snapshot.template.body, bodyPlain: snapshot.template.body_plain });
      } catch (error) {
        if (!(error instanceof TemplateRenderError)) throw error;
        render = error;
      }
    }
    cache.broadcasts.set(
      id,
      snapshot && render
        ? {
            snapshot,
            doNotUnsubscribe: b!.doNotUnsubscribe,
            subscriptionId: b!.subscriptionId,
            skipUnsubscribed: b!.skipUnsubscribed,
            tracking: { opens: b!.trackOpens, clicks: b!.trackClicks },
            render,
          }
        : null,
    );
  }
  return cache.broadcasts.get(id)!;
}

async function composeBroadcastRows(env: Env, db: Database, orgId: number, rows: ClaimedMessage[], cache: ComposeCache): Promise<Composed[]> {
  if (rows.length === 0) return [];
  const people = await loadContactPlaceholdersMany(db, orgId, rows.map((r) => r.contact_id).filter((id): id is number => id !== null));
  const skips = new Map<number, string>();
  for (const broadcastId of new Set(rows.map((r) => r.broadcast_id!))) {
    const b = await broadcastOf(db, orgId, broadcastId, cache);
    if (!b) continue;
    const found = await sendTimeSkips(db, orgId, b, rows.filter((r) => r.broadcast_id === broadcastId));
    for (const [id, reason] of found) skips.set(id, reason);
  }
  const out: Composed[] = [];
  for (const row of rows) {
    const b = await broadcastOf(db, orgId, row.broadcast_id!, cache);
    if (!b) {
      out.push({ row, failure: 'The broadcast has no frozen content' });
      continue;
    }
    const skip = skips.get(row.id);
    if (skip) {
      out.push({ row, skip });
      continue;
    }
    const contact = row.contact_id === null ? undefined : people.get(row.contact_id);
    if (!contact) {
      out.push({ row, failure: 'The contact was deleted before the message went out' });
      continue;
    }
    if (b.render instanceof TemplateRenderError) {
      out.push({ row, failure: b.render.message });
      continue;
    }
    const link = await unsubscribeUrl(env, b.snapshot.organization.domain, { orgId, contactId: contact.id, messageId: row.id });
    let rendered;
    try {
      rendered = b.render({ contact, organization: b.snapshot.organization, unsubscribe_url: link });
    } catch (error) {
      out.push({ row, failure: error instanceof TemplateRenderError ? error.message : String(error) });
      continue;
    }
    const base = { id: row.id, from: { address: row.from_address, name: row.from_name }, to: row.to_address, body: rendered.body };
    if (row.type === 'sms') {
      if ([...rendered.body].length > TEMPLATE_LIMITS.smsCharacters) out.push({ row, failure: TEMPLATE_MESSAGES.smsTooLong });
      else out.push({ row, integrationId: b.snapshot.sender.integration_id, message: base });
      continue;
    }
    const template = b.snapshot.template;
    const attachments = await readAttachments(env, cache, template.attachments.map((a) => ({ filename: a.file_name, contentType: a.content_type, key: a.file_key, size: a.size })));
    if (typeof attachments === 'string') {
      out.push({ row, failure: attachments });
      continue;
    }
    const html = template.type !== 'text';
    const target = { origin: orgOrigin(env, b.snapshot.organization.domain), orgId, messageId: row.id, unsubscribeUrl: link };
    out.push({
      row,
      integrationId: b.snapshot.sender.integration_id,
      message: {
        ...base,
        body: html ? await addTracking(env, rendered.body, target, b.tracking) : rendered.body,
        // html templates have no subject of their own: the template name is the subject, as for test messages.
        subject: rendered.subject ?? template.name,
        bodyPlain: rendered.body_plain,
        html,
        attachments,
        // RFC 2369 and RFC 8058: mail clients offer an unsubscribe button, and a POST of List-Unsubscribe=One-Click
        // to the same URL unsubscribes at once (src/modules/unsubscribe/one-click.ts).
        headers: b.doNotUnsubscribe ? null : { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      },
    });
  }
  return out;
}

/** A message whose content is in its row (test messages): its sender and template's files. */
async function composeStoredRow(env: Env, db: Database, row: ClaimedMessage, cache: ComposeCache): Promise<Composed> {
  const sender = row.sender_id ? await new TenantScope(db, senders, row.org_id).findById(row.sender_id) : undefined;
  if (!sender) return { row, failure: 'The sender of this message no longer exists' };
  const base: OutgoingMessage = { id: row.id, from: { address: row.from_address, name: row.type === 'email' ? row.from_name : null }, to: row.to_address, body: row.body };
  if (row.type !== 'email') return { row, integrationId: sender.integrationId, message: base };
  let templateType: string | null = null;
  let attachments: OutgoingAttachment[] = [];
  if (row.template_id) {
    const [template] = await db.select({ type: templates.type }).from(templates).where(and(eq(templates.id, row.template_id), eq(templates.orgId, row.org_id)));
    templateType = template?.type ?? null;
    const files = await new TenantScope(db, templateAttachments, row.org_id)
      .selectWhere(sql`${templateAttachments.templateId} = ${row.template_id}`)
      .orderBy(asc(templateAttachments.id));
    const read = await readAttachments(env, cache, files.map((f) => ({ filename: f.fileName, contentType: f.contentType, key: f.fileKey, size: f.size })));
    if (typeof read === 'string') return { row, failure: read };
    attachments = read;
  }
  // Text templates sent by email are plain text; html and email templates are html. Test messages are tracked
  // as the organisation's defaults say, so their opens and clicks show on the message like any other.
  const html = templateType !== 'text';
  const org = html ? await cache.organization(db, row.org_id) : undefined;
  const body = org ? await addTracking(env, row.body, { origin: orgOrigin(env, org.domain), orgId: row.org_id, messageId: row.id, unsubscribeUrl: null }, org.tracking) : row.body;
  return { row, integrationId: sender.integrationId, message: { ...base, body, subject: row.subject ?? '', bodyPlain: row.body_plain, html, attachments } };
}

/** Reads the files of a message from R2, or says why it cannot carry them. */
async function readAttachments(
  env: Env,
  cache: ComposeCache,
  files: { filename: string; contentType: string; key: string; size: number }[],
): Promise<OutgoingAttachment[] | string> {
  const total = files.reduce((sum, f) => sum + f.size, 0);
  if (total > MAX_EMAIL_ATTACHMENT_BYTES) {
    return `The attachments total ${Math.round(total / 1e6)} MB, more than the ${MAX_EMAIL_ATTACHMENT_BYTES / 1e6} MB one email can carry`;
  }
  const out: OutgoingAttachment[] = [];
  for (const file of files) {
    const content = await cache.file(env, file.key);
    if (!content) return `The attachment ${file.filename} is missing from storage`;
    out.push({ filename: file.filename, contentType: file.contentType, content });
  }
  return out;
}
