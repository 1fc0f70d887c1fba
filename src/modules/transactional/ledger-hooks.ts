import type { ApiLimits } from '../../context';
import { admitMessages, type ApiLimitRefusal } from '../api-key/rate-limit';
import { finishIdempotentSql } from '../idempotency/ledger-side';
import type { AcceptHooks } from './lane';

// What a send call asks of its ledger besides the rows, as data (a Durable Object call carries no functions): its
// organisation key's hourly message limits and its Idempotency-Key. The ledger turns them into the hooks of acceptSends,
// which run in the transaction that writes the messages: a refused limit writes nothing, a kept answer names the rows.
// The hourly buckets are those of the ledger that takes the messages (the organisation's newest; its first, where the
// request buckets live, until the size guard opens a second: src/modules/ledger/size-guard.ts).

export interface HourlyLimits {
  keyId: number;
  limits: ApiLimits;
}

export interface IdempotencyRef {
  scope: string;
  key: string;
}

/** The hooks acceptSends runs inside its transaction. */
export function acceptHooks(hourly: HourlyLimits | null, idempotency: IdempotencyRef | null, now: number): AcceptHooks<ApiLimitRefusal> {
  return {
    ...(hourly && {
      limit: (sql, count) => {
        const admission = admitMessages(sql, hourly.keyId, hourly.limits, count, now);
        return admission.ok ? null : admission;
      },
    }),
    ...(idempotency && { remember: (sql, status, body) => finishIdempotentSql(sql, idempotency.scope, idempotency.key, status, body) }),
  };
}
