// Seeds the example organisation `acme` and its admin user into local D1, idempotently: run it as often as
// you like, it upserts (and resets the password to the one printed).
// Usage: node scripts/seed.ts [--persist-to <dir>]   (Node 22 runs this file directly, stripping the types)
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { hashPassword } from '../src/lib/password.ts';
import { BIN, localEnv, ROOT } from './lib/run.mjs';
import { SEED_ORG, SEED_USER } from './lib/seed-data.mjs';

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** A SQL string literal. */
function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The upserts for the organisation and the user, as one script. */
export function seedSql(passwordHash: string): string {
  const org = SEED_ORG;
  const user = SEED_USER;
  return [
    `INSERT INTO organizations (name, domain) VALUES (${sqlText(org.name)}, ${sqlText(org.domain)})`,
    `  ON CONFLICT(domain) DO UPDATE SET name = excluded.name, updated_at = ${NOW};`,
    `INSERT INTO users (org_id, name, username, email, password_hash)`,
    `  SELECT id, ${sqlText(user.name)}, ${sqlText(user.username)}, ${sqlText(user.email)}, ${sqlText(passwordHash)}`,
    `  FROM organizations WHERE domain = ${sqlText(org.domain)}`,
    `  ON CONFLICT(org_id, username) DO UPDATE SET name = excluded.name, email = excluded.email,`,
    `    password_hash = excluded.password_hash, updated_at = ${NOW};`,
  ].join('\n');
}

/** Writes the seed into the local D1 database (wrangler's default state, or `persistTo`). */
export async function seed(persistTo?: string): Promise<void> {
  const sql = seedSql(await hashPassword(SEED_USER.password));
  const args = ['d1', 'execute', 'DB', '--local', '--command', sql];
  if (persistTo) args.push('--persist-to', persistTo);
  const result = spawnSync(path.join(BIN, 'wrangler'), args, {
    cwd: ROOT,
    env: localEnv({ CI: 'true', WRANGLER_SEND_METRICS: 'false' }),
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    throw new Error(`Seeding local D1 failed (wrangler d1 execute exit code ${result.status})`);
  }
}

if (import.meta.filename === process.argv[1] || process.argv[1]?.endsWith('scripts/seed.ts')) {
  const at = process.argv.indexOf('--persist-to');
  const persistTo = at > 0 ? process.argv[at + 1] : undefined;
  seed(persistTo).then(
    () => {
      console.log(`Seeded organisation '${SEED_ORG.domain}' (${SEED_ORG.name}) with user ${SEED_USER.name}`);
      console.log(`  login:    ${SEED_USER.username}`);
      console.log(`  password: ${SEED_USER.password}`);
    },
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
