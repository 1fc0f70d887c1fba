import type { SendAccepted } from '../../shared/contracts/transactional';
import type { ErrorBody } from '../../shared/errors';

// The answer of a send call, made where the messages get their ids: inside the ledger's transaction (lane.ts), so an
// Idempotency-Key's stored answer and the messages it names are written together. A single send answers 202 with
// its message; a batch answers 202 with each message's own answer in order (202 with its message, or its 422).

export type PlannedItem =
  | { accepted: true; row: number; to: string; sendAt: string | null; sandbox: boolean }
  | { accepted: false; status: 422; error: ErrorBody['error'] };

export interface AnswerPlan {
  batch: boolean;
  items: PlannedItem[];
}

export type BatchItemAnswer = { index: number; status: 202; data: SendAccepted } | { index: number; status: 422; error: ErrorBody['error'] };

const acceptedOf = (item: Extract<PlannedItem, { accepted: true }>, id: number): SendAccepted => ({
  id,
  status: item.sandbox ? 'sent' : 'queued',
  to: item.to,
  send_at: item.sendAt,
  sandbox: item.sandbox,
});

/** The call's status and JSON body, given the ids of the rows inserted in plan order. */
export function sendAnswer(plan: AnswerPlan, ids: number[]): { status: number; body: string } {
  if (!plan.batch) {
    const item = plan.items[0];
    if (!item.accepted) return { status: item.status, body: JSON.stringify({ error: item.error }) };
    return { status: 202, body: JSON.stringify({ data: acceptedOf(item, ids[item.row]) }) };
  }
  const data: BatchItemAnswer[] = plan.items.map((item, index) =>
    item.accepted ? { index, status: 202, data: acceptedOf(item, ids[item.row]) } : { index, status: item.status, error: item.error },
  );
  return { status: 202, body: JSON.stringify({ data }) };
}
