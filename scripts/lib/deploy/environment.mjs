// What one deployment environment is called on the Cloudflare account: production keeps the names wrangler.toml
// uses locally (relay, relay-files, relay-send, ...); any other environment prefixes them (relay-staging,
// relay-staging-files, relay-staging-send, ...), so both live on one account without touching each other. The worker
// tells its queues apart by the end of their names (src/queue-names.ts), so the prefix changes no code.
import path from 'node:path';
import { ROOT } from '../run.mjs';

export const ENVIRONMENTS = ['production', 'staging'];

const QUEUE_ROLES = ['send', 'transactional', 'import', 'events', 'webhooks'];

/** The deploy tests' own environments (test-<word>): never a real deployment's names or files. */
const TEST_ENVIRONMENT = /^test-[a-z0-9]{1,20}$/;

export function environmentOf(name) {
  if (!ENVIRONMENTS.includes(name) && !TEST_ENVIRONMENT.test(name)) throw new Error(`Unknown environment "${name}": use one of ${ENVIRONMENTS.join(', ')}`);
  const prefix = name === 'production' ? 'relay' : `relay-${name}`;
  const queues = QUEUE_ROLES.flatMap((role) => [`${prefix}-${role}`, `${prefix}-${role}-dlq`]);
  return {
    name,
    worker: prefix,
    database: prefix,
    bucket: `${prefix}-files`,
    queues,
    /** The generated wrangler config (git-ignored), next to wrangler.toml so its relative paths still hold. */
    configPath: path.join(ROOT, `wrangler.${name}.generated.toml`),
    /** What the last run found and chose (git-ignored): resource ids, the public URL, what was deployed. */
    statePath: path.join(ROOT, '.deploy', `${name}.json`),
  };
}

/** The queue name of wrangler.toml's local name (relay-send -> relay-staging-send). */
export const queueNameIn = (env, localName) => localName.replace(/^relay-/, `${env.worker}-`);
