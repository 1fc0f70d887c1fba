import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts, organizations, senders, subscriptions, templateAttachments, templates } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import type { Env } from '../../env';
import { loadContactPlaceholdersMany } from '../../lib/templating/placeholders';
import { TemplateRenderError } from '../../lib/templating/render-template';
import type { OutgoingAttachment, OutgoingMessage } from '../../lib/transport/types';
import { TEMPLATE_LIMITS, TEMPLATE_MESSAGES } from '../../shared/contracts/template';
import { orgOrigin } from '../../lib/org-url';
import type { TrackingOptions } from '../tracking/compile';
import { bulkHeaders, FEEDBACK_SENDER_ID, listHeaders } from './bulk-headers';
import { prepareBroadcastContent, prepareFinishedContent, renderMessage, type MessageContent, type PreparedContent } from './message-content';
import { sendTimeSkips } from './send-time-skips';
import { backgroundStep } from '../../lib/requests-first';
import type { BroadcastSnapshot } from '../broadcast/snapshot';
import { messageToken, unsubscribeUrlOf } from '../../lib/templating/unsubscribe-link';
import type { SendOptions } from '../../shared/contracts/transactional';
import { UNSUBSCRIBE_MARK } from '../transactional/unsubscribe-mark';

// Claimed message rows -> what the transport sends. A test message carries its rendered body in the row; a
// broadcast message is rendered here, per recipient, from the broadcast's content prepared once per invocation
// (message-content.ts). A row left out on purpose (blacklisted, unsubscribed, STOP) is skipped with the reason
// (send-time-skips.ts); whatever else cannot be sent (sender gone, render error) becomes a permanent failure.

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
  is_test: boolean | number;
  /** A transactional message's SendOptions as stored (JSON text), else null. */
  send_options: string | null;
}

/** The columns of a claimed message that composing and recording read (the claim answers only these). */
export const CLAIMED_COLUMNS = [
  'id',
  'org_id',
  'type',
  'status',
  'sender_id',
  'template_id',
  'contact_id',
  'broadcast_id',
  'from_address',
  'from_name',
  'to_address',
  'subject',
  'body',
  'body_plain',
  'attempts',
  'is_test',
  'send_options',
] as const satisfies readonly (keyof ClaimedMessage)[];

export type Composed =
  | { row: ClaimedMessage; integrationId: number; message: OutgoingMessage }
  | { row: ClaimedMessage; failure: string }
  /** Not sent and not failed: left out on purpose (see send-time-skips.ts). */
  | { row: ClaimedMessage; skip: string };

export interface BroadcastForSending {
  id: number;
  name: string;
  snapshot: BroadcastSnapshot;
  doNotUnsubscribe: boolean;
  subscription: { id: number; name: string } | null;
  skipUnsubscribed: boolean;
  content: PreparedContent | TemplateRenderError;
  /** The bulk-mail headers all its messages share (bulk-headers.ts). */
  listHeaders: Record<string, string>;
}

/** An email's attachments are read into memory to be sent: above this the send fails rather than the worker. */
export const MAX_EMAIL_ATTACHMENT_BYTES = 40_000_000;

/** A broadcast's content and sending rules by `${orgId}:${broadcastId}`: read and prepared once per invocation. */
export type BroadcastCache = Map<string, Promise<BroadcastForSending | null>>;

/** A file to attach: its name and type, and where it is stored in R2. */
export interface StoredFile {
  filename: string;
  contentType: string;
  key: string;
  size: number;
}

/** The value under `key`, made by `make` on first use. */
function once<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/**
 * What composing reads once and reuses: broadcasts across the invocation's batches; files, organisations, and the
 * senders and templates a batch of single messages mostly shares, per batch.
 */
export class ComposeCache {
  files = new Map<string, Promise<Uint8Array | null>>();
  organizations = new Map<number, Promise<{ domain: string; tracking: TrackingOptions } | undefined>>();
  senders = new Map<string, Promise<typeof senders.$inferSelect | undefined>>();
  templateParts = new Map<string, Promise<{ type: string | null; files: StoredFile[] }>>();

  constructor(readonly broadcasts: BroadcastCache = new Map()) {}

  sender(db: Database, orgId: number, id: number) {
    return once(this.senders, `${orgId}:${id}`, () => new TenantScope(db, senders, orgId).findById(id));
  }

  /** A template's type and files (in order), for the single messages made from it. */
  template(db: Database, orgId: number, id: number) {
    return once(this.templateParts, `${orgId}:${id}`, () =>
      Promise.all([
        db
          .select({ type: templates.type })
          .from(templates)
          .where(and(eq(templates.id, id), eq(templates.orgId, orgId))),
        new TenantScope(db, templateAttachments, orgId).selectWhere(sql`${templateAttachments.templateId} = ${id}`).orderBy(asc(templateAttachments.id)),
      ]).then(([[template], own]) => ({
        type: template?.type ?? null,
        files: own.map((f) => ({ filename: f.fileName, contentType: f.contentType, key: f.fileKey, size: f.size })),
      })),
    );
  }

  /** The organisation's host and tracking defaults (test messages follow them). */
  organization(db: Database, orgId: number) {
    return once(this.organizations, orgId, () =>
      db
        .select({ domain: organizations.domain, opens: organizations.trackOpens, clicks: organizations.trackClicks })
        .from(organizations)
        .where(eq(organizations.id, orgId))
        .then(([o]) => (o ? { domain: o.domain, tracking: { opens: o.opens, clicks: o.clicks } } : undefined)),
    );
  }

  file(env: Env, key: string): Promise<Uint8Array | null> {
    return once(this.files, key, () => env.FILES.get(key).then(async (object) => (object ? new Uint8Array(await object.arrayBuffer()) : null)));
  }

  /** The broadcast's snapshot, rules and prepared content, read once per invocation (a failed read is tried again). */
  broadcast(env: Env, db: Database, orgId: number, id: number): Promise<BroadcastForSending | null> {
    const key = `${orgId}:${id}`;
    return once(this.broadcasts, key, () => {
      const b = loadBroadcastForSending(env, db, orgId, id);
      b.catch(() => this.broadcasts.delete(key));
      return b;
    });
  }
}

/** Builds the outgoing messages of a batch of claimed rows of one organisation. */
export async function composeBatch(env: Env, db: Database, orgId: number, rows: ClaimedMessage[], cache: ComposeCache): Promise<Composed[]> {
  const skips = new Map<number, string>();
  // One rule per group: a broadcast's own (its subscription), a single message's category (transactional sends), or
  // none (blacklist and STOP only). Each group is checked in one go.
  const groups = new Map<string, { broadcastId: number | null; category: number | null; rows: ClaimedMessage[] }>();
  for (const row of rows) {
    const category = row.broadcast_id === null ? (sendOptionsOf(row).subscriptionId ?? null) : null;
    once(groups, `${row.broadcast_id}:${category}`, () => ({ broadcastId: row.broadcast_id, category, rows: [] })).rows.push(row);
  }
  for (const group of groups.values()) {
    const b = group.broadcastId === null ? null : await cache.broadcast(env, db, orgId, group.broadcastId);
    const rule = b
      ? { subscriptionId: b.subscription?.id ?? null, skipUnsubscribed: b.skipUnsubscribed }
      : group.category !== null
        ? { subscriptionId: group.category, skipUnsubscribed: true }
        : null;
    for (const [id, reason] of await sendTimeSkips(db, orgId, rule, group.rows)) skips.set(id, reason);
  }
  const toSend = rows.filter((r) => !skips.has(r.id));
  return [
    ...rows.filter((r) => skips.has(r.id)).map((row) => ({ row, skip: skips.get(row.id)! })),
    ...(await composeBroadcastRows(
      env,
      db,
      orgId,
      toSend.filter((r) => r.broadcast_id !== null),
      cache,
    )),
    ...(await Promise.all(toSend.filter((r) => r.broadcast_id === null).map((r) => composeStoredRow(env, db, r, cache)))),
  ];
}

async function loadBroadcastForSending(env: Env, db: Database, orgId: number, id: number): Promise<BroadcastForSending | null> {
  const [b] = await db
    .select({
      name: broadcasts.name,
      snapshot: broadcasts.snapshot,
      doNotUnsubscribe: broadcasts.doNotUnsubscribe,
      subscriptionId: broadcasts.subscriptionId,
      subscriptionName: subscriptions.name,
      skipUnsubscribed: broadcasts.skipUnsubscribed,
      trackOpens: broadcasts.trackOpens,
      trackClicks: broadcasts.trackClicks,
    })
    .from(broadcasts)
    .leftJoin(subscriptions, and(eq(subscriptions.id, broadcasts.subscriptionId), eq(subscriptions.orgId, orgId)))
    .where(and(eq(broadcasts.id, id), eq(broadcasts.orgId, orgId)));
  const snapshot = b?.snapshot as BroadcastSnapshot | null | undefined;
  if (!b || !snapshot) return null;
  let content: PreparedContent | TemplateRenderError;
  try {
    const origin = orgOrigin(env, snapshot.organization.domain);
    content = await prepareBroadcastContent(env, { orgId, broadcastId: id, origin }, snapshot, { opens: b.trackOpens, clicks: b.trackClicks });
  } catch (error) {
    if (!(error instanceof TemplateRenderError)) throw error;
    content = error;
  }
  const subscription = b.subscriptionId !== null && b.subscriptionName !== null ? { id: b.subscriptionId, name: b.subscriptionName } : null;
  return {
    id,
    name: b.name,
    snapshot,
    doNotUnsubscribe: b.doNotUnsubscribe,
    subscription,
    skipUnsubscribed: b.skipUnsubscribed,
    content,
    listHeaders: listHeaders(env, orgId, { id, name: b.name, subscription, organization: snapshot.organization }),
  };
}

async function composeBroadcastRows(env: Env, db: Database, orgId: number, rows: ClaimedMessage[], cache: ComposeCache): Promise<Composed[]> {
  if (rows.length === 0) return [];
  const people = await loadContactPlaceholdersMany(
    db,
    orgId,
    rows.map((r) => r.contact_id).filter((id): id is number => id !== null),
  );
  return Promise.all(
    rows.map(async (row): Promise<Composed> => {
      const b = await cache.broadcast(env, db, orgId, row.broadcast_id!);
      if (!b) return { row, failure: 'The broadcast has no frozen content' };
      const contact = row.contact_id === null ? undefined : people.get(row.contact_id);
      if (!contact) return { row, failure: 'The contact was deleted before the message went out' };
      if (b.content instanceof TemplateRenderError) return { row, failure: b.content.message };
      await backgroundStep(); // after a request in flight, if any (src/lib/requests-first.ts)
      let made: MessageContent;
      try {
        made = await renderMessage(env, b.content, { id: row.id, contactId: contact.id }, { contact, organization: b.snapshot.organization });
      } catch (error) {
        return { row, failure: error instanceof TemplateRenderError ? error.message : String(error) };
      }
      const base = { id: row.id, from: { address: row.from_address, name: row.from_name }, to: row.to_address, body: made.body };
      if (row.type === 'sms') {
        if ([...made.body].length > TEMPLATE_LIMITS.smsCharacters) return { row, failure: TEMPLATE_MESSAGES.smsTooLong };
        return { row, integrationId: b.snapshot.sender.integration_id, message: base };
      }
      // Never a subject the user did not write (a broadcast is refused at creation and at start without one).
      if (made.subject === null) return { row, failure: TEMPLATE_MESSAGES.noSubject };
      const template = b.snapshot.template;
      const attachments = await readAttachments(
        env,
        cache,
        template.attachments.map((a) => ({ filename: a.file_name, contentType: a.content_type, key: a.file_key, size: a.size })),
      );
      if (typeof attachments === 'string') return { row, failure: attachments };
      return {
        row,
        integrationId: b.snapshot.sender.integration_id,
        message: {
          ...base,
          subject: made.subject,
          bodyPlain: made.bodyPlain,
          html: b.content.html,
          attachments,
          headers: bulkHeaders(b.listHeaders, b.doNotUnsubscribe ? null : made.unsubscribeUrl),
        },
      };
    }),
  );
}

/**
 * A message whose content is in its row (test messages, transactional sends): its sender, its template's files and
 * its own (send_options: cc, bcc, reply-to, headers, files, tracking, category).
 */
async function composeStoredRow(env: Env, db: Database, row: ClaimedMessage, cache: ComposeCache): Promise<Composed> {
  const sender = row.sender_id ? await cache.sender(db, row.org_id, row.sender_id) : undefined;
  if (!sender) return { row, failure: 'The sender of this message no longer exists' };
  const base: OutgoingMessage = {
    id: row.id,
    from: { address: row.from_address, name: row.type === 'email' ? row.from_name : null },
    to: row.to_address,
    body: row.body,
  };
  if (row.type !== 'email') return { row, integrationId: sender.integrationId, message: base };
  const options = sendOptionsOf(row);
  let templateType: string | null = null;
  const files: StoredFile[] = [];
  if (row.template_id) {
    const template = await cache.template(db, row.org_id, row.template_id);
    templateType = template.type;
    files.push(...template.files);
  }
  files.push(...(options.attachments ?? []));
  const attachments = await readAttachments(env, cache, files);
  if (typeof attachments === 'string') return { row, failure: attachments };
  const subject = row.subject ?? '';
  const org = await cache.organization(db, row.org_id);
  const origin = orgOrigin(env, org?.domain ?? '');
  // A category's unsubscribe link, made now that the message has its id (transactional/unsubscribe-mark.ts).
  const unsubscribeUrl = options.subscriptionId
    ? unsubscribeUrlOf(origin, await messageToken(env, { orgId: row.org_id, contactId: row.contact_id, messageId: row.id, broadcastId: null }))
    : null;
  const withLink = (text: string | null) => (text && unsubscribeUrl ? text.replaceAll(UNSUBSCRIBE_MARK, unsubscribeUrl) : text);
  const extra = {
    attachments,
    ...(options.cc && { cc: options.cc }),
    ...(options.bcc && { bcc: options.bcc }),
    ...(options.replyTo && { replyTo: options.replyTo }),
    headers: storedRowHeaders(row, options, unsubscribeUrl),
  };
  // Text templates sent by email, and inline text without html, are plain text; html and email templates are html.
  if (templateType === 'text' || options.plain)
    return {
      row,
      integrationId: sender.integrationId,
      message: { ...base, body: withLink(row.body)!, subject, bodyPlain: withLink(row.body_plain), html: false, ...extra },
    };
  // Tracked as the message says (transactional) or as the organisation's defaults say (test messages), so their
  // opens and clicks show on the message like any other, by the same two steps as a broadcast's messages.
  const tracking = options.tracking ?? org?.tracking ?? { opens: false, clicks: false };
  const content = await prepareFinishedContent(
    env,
    { orgId: row.org_id, messageId: row.id, origin },
    { subject, body: withLink(row.body)!, bodyPlain: withLink(row.body_plain) },
    tracking,
  );
  const made = await renderMessage(
    env,
    content,
    { id: row.id, contactId: row.contact_id },
    { contact: {}, organization: { name: '', domain: org?.domain ?? '' } },
  );
  return { row, integrationId: sender.integrationId, message: { ...base, body: made.body, subject, bodyPlain: made.bodyPlain, html: true, ...extra } };
}

/**
 * A stored row's own headers: the caller's (allow-listed when the call was checked), and for a category send its
 * one-click unsubscribe (RFC 8058) and a Feedback-ID naming the stream. A message without a category carries no
 * List-Unsubscribe: a receipt or a code is not something one unsubscribes from.
 */
function storedRowHeaders(row: ClaimedMessage, options: SendOptions, unsubscribeUrl: string | null): Record<string, string> | null {
  if (row.is_test) return null;
  const category = options.subscriptionId ? `category-${options.subscriptionId}` : 'transactional';
  return bulkHeaders({ ...options.headers, 'Feedback-ID': `${category}:${row.org_id}:transactional:${FEEDBACK_SENDER_ID}` }, unsubscribeUrl);
}

/** Reads the files of a message from R2, or says why it cannot carry them. */
async function readAttachments(env: Env, cache: ComposeCache, files: StoredFile[]): Promise<OutgoingAttachment[] | string> {
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

/** A stored row's send options (transactional messages), or none. */
export function sendOptionsOf(row: Pick<ClaimedMessage, 'send_options'>): SendOptions {
  if (!row.send_options) return {};
  try {
    return JSON.parse(row.send_options) as SendOptions;
  } catch {
    return {};
  }
}
