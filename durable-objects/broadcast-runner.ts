// The BroadcastRunner Durable Object class, as wrangler.toml binds it (BROADCAST). Its logic lives beside the
// broadcast it runs: src/modules/broadcast/runner.ts.
export { BroadcastRunner } from '../src/modules/broadcast/runner';
