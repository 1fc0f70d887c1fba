/** Who a ledger belongs to: every call names it, and the ledger refuses a call whose owner is not the one it was made for. */
export interface LedgerOwner {
  orgId: number;
  /** The organisation's random ledger key (organizations.ledger_key). */
  key: string;
  /** 0 for the organisation's first ledger; the size guard opens the next. */
  generation: number;
}

/** The Durable Object's name of a ledger. */
export const ledgerName = (key: string, generation: number) => `${key}:g${generation}`;

/** Why a ledger refused a call (the message starts with the code, so it survives the RPC boundary). */
export const LEDGER_NOT_INITIALISED = 'ledger_not_initialised';
export const LEDGER_WRONG_OWNER = 'ledger_wrong_owner';

export const sameOwner = (a: LedgerOwner, b: LedgerOwner) => a.orgId === b.orgId && a.key === b.key && a.generation === b.generation;

/**
 * What a ledger answers: a refusal is a value, not an exception, so it reaches the caller as the code above (an
 * exception thrown across the RPC boundary loses its class, and the test pool reports it once more as unhandled:
 * workers-sdk#14736). `served` turns a refusal into a LedgerRefused on the worker's side.
 */
export type LedgerAnswer<T> = { ok: true; value: T } | { ok: false; refused: typeof LEDGER_NOT_INITIALISED | typeof LEDGER_WRONG_OWNER };

export class LedgerRefused extends Error {
  constructor(readonly code: typeof LEDGER_NOT_INITIALISED | typeof LEDGER_WRONG_OWNER) {
    super(code === LEDGER_NOT_INITIALISED ? `${code}: this ledger was never made for an organisation` : `${code}: this ledger belongs to another organisation`);
  }
}

export function served<T>(answer: LedgerAnswer<T>): T {
  if (!answer.ok) throw new LedgerRefused(answer.refused);
  return answer.value;
}
