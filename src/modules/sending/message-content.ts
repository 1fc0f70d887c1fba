import { prepareTemplate, type TemplateRenderer } from '../../lib/templating/render-template';
import { messageToken, unsubscribeUrlOf } from '../../lib/templating/unsubscribe-link';
import type { PlaceholderScope } from '../../lib/templating/placeholders';
import type { BroadcastSnapshot } from '../broadcast/snapshot';
import { assembleTracking, signLinks, type SignedLinks } from '../tracking/assemble';
import { COMPILED_VERSION, compileTracking, type CompiledTracking, type TrackingOptions } from '../tracking/compile';

// What a message says, made in two steps. Once per broadcast (per invocation of the consumer): the frozen template
// with its tracking compiled (compile.ts, done when the runner froze it), parsed by Liquid, its links signed.
// Then per recipient: the message token (the message's one signature), the Liquid render with the recipient's
// values, and the tracking assembled by string replacement. A test message takes the same two steps, on its
// finished html, for itself alone.

type Keys = { SECRETS_KEY: string };

/** A content ready to make messages from. */
export interface PreparedContent {
  orgId: number;
  broadcastId: number | null;
  /** The organisation's origin (tracking and unsubscribe links). */
  origin: string;
  /** An html email (given a text alternative, and tracked when `tracked`), or a text email or SMS (sent as rendered). */
  html: boolean;
  /** Whether the html carries tracking marks to replace (opens or clicks on). */
  tracked: boolean;
  /** Subject, body and text alternative for one recipient; throws TemplateRenderError. */
  render: TemplateRenderer;
  signed: SignedLinks;
}

/** One recipient's message. */
export interface MessageContent {
  subject: string | null;
  body: string;
  /** The text alternative of an html body; null for a text body. */
  bodyPlain: string | null;
  unsubscribeUrl: string;
}

/** The compiled tracking of a frozen template (compiled again when the snapshot predates this version). */
async function compiledOf(snapshot: BroadcastSnapshot, tracking: TrackingOptions): Promise<CompiledTracking> {
  const frozen = snapshot.tracking;
  if (frozen && frozen.v === COMPILED_VERSION && frozen.opens === tracking.opens && frozen.clicks === tracking.clicks) return frozen;
  return compileTracking(snapshot.template.body, tracking, true);
}

/** A broadcast's content from its frozen snapshot; throws TemplateRenderError when the template does not parse. */
export async function prepareBroadcastContent(
  env: Keys,
  ids: { orgId: number; broadcastId: number; origin: string },
  snapshot: BroadcastSnapshot,
  tracking: TrackingOptions,
): Promise<PreparedContent> {
  const template = snapshot.template;
  if (template.type === 'text') {
    const render = prepareTemplate({ type: template.type, subject: template.subject, body: template.body, bodyPlain: template.body_plain });
    return { ...ids, html: false, tracked: false, render, signed: { links: [], honeypot: null } };
  }
  const compiled = await compiledOf(snapshot, tracking);
  const ownText = template.type === 'email' && template.body_plain?.trim() ? template.body_plain : null;
  // Parsed as an email template whatever its type, so that the text made from the html is rendered too; html and
  // email templates both carry their subject.
  const render = prepareTemplate({
    type: 'email',
    subject: template.subject,
    body: compiled.html,
    bodyPlain: ownText ?? compiled.text,
  });
  const signed = await signLinks(env, compiled, { broadcastId: ids.broadcastId, messageId: null, origin: ids.origin });
  return { ...ids, html: true, tracked: compiled.opens || compiled.clicks, render, signed };
}

/** A test message's finished html (no Liquid left in it) made ready for that one message. */
export async function prepareFinishedContent(
  env: Keys,
  ids: { orgId: number; messageId: number; origin: string },
  message: { subject: string; body: string; bodyPlain: string | null },
  tracking: TrackingOptions,
): Promise<PreparedContent> {
  const compiled = await compileTracking(message.body, tracking, false);
  const text = message.bodyPlain?.trim() ? message.bodyPlain : compiled.text;
  const signed = await signLinks(env, compiled, { broadcastId: null, messageId: ids.messageId, origin: ids.origin });
  const render: TemplateRenderer = () => ({ subject: message.subject, body: compiled.html, body_plain: text });
  return { orgId: ids.orgId, broadcastId: null, origin: ids.origin, html: true, tracked: compiled.opens || compiled.clicks, render, signed };
}

/** One recipient's message: one signature (its token), one Liquid render, the tracking assembled. */
export async function renderMessage(
  env: Keys,
  content: PreparedContent,
  message: { id: number; contactId: number | null },
  values: Omit<PlaceholderScope, 'unsubscribe_url'>,
): Promise<MessageContent> {
  const token = await messageToken(env, { orgId: content.orgId, contactId: message.contactId, messageId: message.id, broadcastId: content.broadcastId });
  const unsubscribeUrl = unsubscribeUrlOf(content.origin, token);
  const rendered = content.render({ ...values, unsubscribe_url: unsubscribeUrl });
  // Nothing to put in: a text message, or html whose broadcast tracks neither opens nor clicks (no marks).
  if (!content.tracked) return { subject: rendered.subject, body: rendered.body, bodyPlain: rendered.body_plain, unsubscribeUrl };
  const tracked = await assembleTracking(
    env,
    { html: rendered.body, text: rendered.body_plain ?? '' },
    { orgId: content.orgId, messageId: message.id, origin: content.origin, token, unsubscribeUrl, signed: content.signed },
  );
  return { subject: rendered.subject, body: tracked.html, bodyPlain: tracked.text, unsubscribeUrl };
}
