import { finishIdempotentSql } from '../idempotency/ledger-side';
import type { AcceptHooks } from './lane';

// What a send call asks of its ledger besides the rows, as data (a Durable Object call carries no functions): its
// hourly message limits and its Idempotency-Key. The ledger turns them into the hooks of acceptSends.

export interface HourlyLimits {
  keyId: number;
  keyPerHour: number;
  orgPerHour: number;
}

export interface IdempotencyRef {
  scope: string;
  key: string;
}

/** The hooks acceptSends runs inside its transaction. */
export function acceptHooks(limits: HourlyLimits | null, idempotency: IdempotencyRef | null, now: number): AcceptHooks {
  void limits;
  void now;
  return {
    ...(idempotency && { remember: (sql, status, body) => finishIdempotentSql(sql, idempotency.scope, idempotency.key, status, body) }),
  };
}
