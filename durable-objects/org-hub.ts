// The OrgHub Durable Object class, as wrangler.toml binds it (ORG_HUB). Its logic lives with the live updates it
// carries: src/modules/live/org-hub.ts.
export { OrgHub } from '../src/modules/live/org-hub';
