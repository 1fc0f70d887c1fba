#!/usr/bin/env node
// `npm run deploy`: from a fresh clone and a Cloudflare account to a working platform, and the same command again
// for every later release. Usage:
//   npm run deploy -- [--env production|staging] [--public-url https://relay.example.com] [--zone example.com]
//                     [--bounce-domain bounces.example.com] [--dry-run]
// The account: CLOUDFLARE_API_TOKEN (and CLOUDFLARE_ACCOUNT_ID when the token sees several accounts), or
// `wrangler login`. The steps (scripts/lib/deploy/steps.mjs): the D1 database, the R2 bucket and every queue and
// dead-letter queue, created when missing; the generated wrangler config (git-ignored); the D1 migrations; the
// secrets (generated, or taken from the environment); the worker with its routes, Durable Objects, crons and
// assets; the proxied DNS records its routes need. What a run learns (ids, the public URL, what it deployed) is kept in .deploy/<env>.json (git-ignored).
// --dry-run prints the plan and changes nothing; without an account it still prints what each step checks.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureInstalled, reexecOnNode22 } from './lib/install.mjs';
import { CommandError, main, npmRun, step } from './lib/run.mjs';

main(async () => {
  const { values } = parseArgs({
    options: {
      env: { type: 'string', default: 'production' },
      'public-url': { type: 'string' },
      zone: { type: 'string' },
      'bounce-domain': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const dryRun = values['dry-run'];
  // An account is there when wrangler has a token or a login. A dry run without one needs nothing installed (it
  // runs on any Node with its builtins); everything else runs wrangler on the pinned Node 22.
  const online = Boolean(process.env.CLOUDFLARE_API_TOKEN) || existsSync(path.join(homedir(), '.wrangler', 'config', 'default.toml'));
  if (!online && !dryRun)
    throw new CommandError('No Cloudflare account: set CLOUDFLARE_API_TOKEN (and CLOUDFLARE_ACCOUNT_ID), or run `npx wrangler login` first.');
  if (online) {
    await ensureInstalled();
    await reexecOnNode22(fileURLToPath(import.meta.url));
  }
  const { environmentOf } = await import('./lib/deploy/environment.mjs');
  const { readState, steps, writeState } = await import('./lib/deploy/steps.mjs');

  const env = environmentOf(values.env);
  const state = await readState(env);
  const settings = {
    publicUrl: values['public-url'] ?? process.env.PUBLIC_URL ?? state.publicUrl,
    zone: values.zone ?? state.zone,
    bounceDomain: values['bounce-domain'] ?? process.env.BOUNCE_DOMAIN ?? state.bounceDomain,
  };
  step(`${dryRun ? 'Planning' : 'Deploying'} Relay to ${env.name}${settings.publicUrl ? ` at ${settings.publicUrl}` : ''}`);
  if (!dryRun) await npmRun('build:web');
  const changed = [];
  for (const s of steps(env, settings, { dryRun, online })) {
    let result;
    try {
      result = await s.run(state);
    } catch (error) {
      // What was done so far stays done (and is remembered): the next run starts from there.
      if (!dryRun) await writeState(env, { ...state, ...settings });
      throw new CommandError(`${s.name}: ${error.message}\nNothing after this step ran; run the same command again to finish.`);
    }
    const mark = { exists: 'ok     ', created: 'created', changed: 'changed', create: 'plan   ', unknown: 'plan   ' }[result.outcome];
    console.log(`  ${mark}  ${s.name}${result.detail ? `: ${result.detail}` : ''}`);
    if (result.outcome === 'created' || result.outcome === 'changed' || result.outcome === 'create') changed.push(s.name);
  }
  if (!dryRun) await writeState(env, { ...state, ...settings });
  if (dryRun) console.log(`\nDry run: nothing was changed${changed.length ? `; a deploy would change ${changed.length} thing(s)` : ''}.`);
  else if (changed.length === 0) console.log('\nNothing changed: everything was already in place.');
  else console.log(`\nChanged: ${changed.join(', ')}. ${settings.publicUrl} is served by worker ${env.worker}.`);
});
