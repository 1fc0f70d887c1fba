import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError, validationFailed } from '../../lib/api-error';
import { loadContactPlaceholdersMany } from '../../lib/templating/placeholders';
import { requireJsonType } from '../../lib/validate';
import { sendBatchSchema, sendMessageSchema, type SendMessageInput } from '../../shared/contracts/transactional';
import { MESSAGES } from '../../shared/messages';
import { fieldErrors } from '../../shared/zod-helpers';
import { idempotent, type IdempotencyClaim } from '../idempotency/request-side';
import { served } from '../ledger/owner';
import { handleOf } from '../ledger/registry';
import { requestCurrentLedger } from '../ledger/request-ledger';
import type { AnswerPlan, PlannedItem } from './answer';
import { makeCategoryContacts, refuseErasedRecipients } from './category-contact';
import { enqueueSingles } from './enqueue';
import { storeInlineFiles } from './inline-files';
import { laneRowOf } from './lane-row';
import { contactOf, prepareSend, type Prepared, type ReadySend } from './prepare';
import { loadReferences } from './references';
import { hourlyLimitsOf } from './limits';
import { apiLimitError } from '../api-key/rate-limit';

// POST /send and POST /send/batch: an organisation's own software sends one message (or up to 500) to one recipient
// each. The flow: parse -> read what the messages name (one D1 round trip: references.ts) -> check and render each
// (prepare.ts) -> store inline files in R2, make a category's contact -> the organisation's ledger takes the rows,
// the hourly limits and the Idempotency-Key's answer in one transaction (lane.ts) -> the transactional queue
// (enqueue.ts) -> its consumer claims and sends them like a broadcast's batch (queues/transactional.ts). The answer is
// 202 with the message ids at once; nothing is written for a message that is refused.

type Ctx = Context<AppEnv>;

/** Who the Idempotency-Key belongs to with the path: the organisation key, else the user. */
const callerScope = (c: Ctx) => {
  const key = c.var.auth.orgKey;
  return `${key ? `key:${key.id}` : `user:${c.var.auth.userId}`}:${c.req.path}`;
};

async function bodyOf(c: Ctx): Promise<unknown> {
  requireJsonType(c.req.header('content-type'));
  try {
    return JSON.parse(await c.req.text());
  } catch {
    throw new ApiError(400, 'invalid_json', MESSAGES.invalidJson);
  }
}

/** The call's messages as parsed, each its input or its field errors. */
function parseMessages(raw: unknown, batch: boolean): ({ ok: true; input: SendMessageInput } | { ok: false; fields: Record<string, string[]> })[] {
  const items = batch ? batchItems(raw) : [raw];
  return items.map((item) => {
    const parsed = sendMessageSchema.safeParse(item);
    return parsed.success ? { ok: true, input: parsed.data } : { ok: false, fields: fieldErrors(parsed.error) };
  });
}

function batchItems(raw: unknown): unknown[] {
  const parsed = sendBatchSchema.safeParse(raw);
  if (!parsed.success) throw validationFailed(fieldErrors(parsed.error));
  return parsed.data.messages;
}

const refused = (fields: Record<string, string[]>): PlannedItem => ({
  accepted: false,
  status: 422,
  error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields },
});

async function send(c: Ctx, batch: boolean, claim: IdempotencyClaim | null) {
  const orgId = c.var.org.id;
  const now = Date.now();
  const parsed = parseMessages(await bodyOf(c), batch);
  const inputs = parsed.flatMap((p) => (p.ok ? [p.input] : []));
  const refs = await loadReferences(c.var.db, orgId, inputs);
  // The contacts whose fields a template's placeholders may read: one more round trip, only for template sends.
  const withTemplate = inputs.filter((i) => i.template_id !== undefined);
  const contactIds = withTemplate.map((i) => contactOf(i, refs)).filter((id): id is number => id !== null);
  const people = await loadContactPlaceholdersMany(c.var.db, orgId, contactIds);
  const ctx = { orgId, organization: { name: c.var.org.name, domain: c.var.org.domain }, tracking: refs.tracking, people, now };
  const prepared: Prepared[] = await refuseErasedRecipients(
    c,
    parsed.map((p) => (p.ok ? prepareSend(p.input, refs, ctx) : p)),
  );
  if (!batch && !prepared[0].ok) throw validationFailed(prepared[0].fields);
  const ready = prepared.flatMap((p) => (p.ok ? [p.send] : []));
  if (ready.length === 0) {
    const fields: Record<string, string[]> = {};
    for (const [index, p] of prepared.entries()) if (!p.ok) for (const [field, list] of Object.entries(p.fields)) fields[`messages.${index}.${field}`] = list;
    throw validationFailed(fields);
  }

  const sandbox = c.var.auth.orgKey?.test ?? false;
  // A test key makes no contacts: it changes nothing a live call would not, and sends nothing.
  if (!sandbox) await makeCategoryContacts(c, ready);
  const files = await storeInlineFiles(c.env, orgId, ready);
  const rows = ready.map((send: ReadySend, k) => laneRowOf(orgId, send, files[k], { apiKeyId: c.var.auth.orgKey?.id ?? null, sandbox, now }));
  let row = 0;
  const plan: AnswerPlan = {
    batch,
    items: prepared.map((p) => (p.ok ? { accepted: true, row: row++, to: p.send.to, sendAt: p.send.sendAt, sandbox } : refused(p.fields))),
  };

  const ledger = claim?.ledger ?? (refs.currentLedger ? handleOf(c.env, orgId, refs.currentLedger) : await requestCurrentLedger(c));
  const accepted = served(await ledger.stub.acceptSends(ledger.owner, { rows, plan }, hourlyLimitsOf(c), claim && { scope: claim.scope, key: claim.key }, now));
  if (!accepted.ok) throw apiLimitError(accepted.refusal);
  const queueNow = ready.flatMap((send, k) => (send.sendAt === null && !sandbox ? [accepted.ids[k]] : []));
  if (queueNow.length) {
    try {
      await enqueueSingles(c.env, orgId, queueNow);
    } catch (error) {
      // The rows are in the ledger: its watch hands them to the queue (lane.ts). The caller's answer stands.
      console.error(JSON.stringify({ level: 'error', request_id: c.var.requestId, transactional: 'enqueue', error: String(error) }));
    }
  }
  return {
    response: new Response(accepted.body, { status: accepted.status, headers: { 'Content-Type': 'application/json' } }),
    finished: claim !== null,
  };
}

/** /send: POST / (one message) and POST /batch (up to 500), each behind an Idempotency-Key when the caller gives one. */
export const sendRoutes = new Hono<AppEnv>()
  .post('/', (c) => idempotent(c, callerScope(c), (claim) => send(c, false, claim)))
  .post('/batch', (c) => idempotent(c, callerScope(c), (claim) => send(c, true, claim)));
