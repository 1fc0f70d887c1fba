// The OrgLedger Durable Object class, as wrangler.toml binds it (LEDGER). Its logic lives with the ledger:
// src/modules/ledger/org-ledger.ts.
export { OrgLedger } from '../src/modules/ledger/org-ledger';
