// Runs wrangler (the project's pinned one) and reads what it prints. Every Cloudflare call of the deploy goes through
// wrangler's own commands: the deploy script is the glue between them, not a second API client. The API base,
// token and account come from the environment wrangler reads (CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID,
// CLOUDFLARE_API_BASE_URL), or from `wrangler login`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BIN, ROOT } from '../run.mjs';

export class WranglerError extends Error {}

/** Runs `wrangler <args>`; answers its output, or throws with it when it fails. */
export function wrangler(args, { input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(BIN, 'wrangler'), args, {
      cwd: ROOT,
      // No prompts (CI=1 takes their non-interactive answers), no colours, no metrics, no update banner noise.
      env: {
        ...process.env,
        PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}`,
        CI: '1',
        NO_COLOR: '1',
        WRANGLER_SEND_METRICS: 'false',
        FORCE_COLOR: '0',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.stdin.end(input ?? '');
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new WranglerError(`wrangler ${args.join(' ')} failed (exit ${code}):\n${out.trim()}`));
    });
  });
}

/** `wrangler d1 list --json`: the account's D1 databases ({ uuid, name }). */
export async function listDatabases() {
  const out = await wrangler(['d1', 'list', '--json']);
  const start = out.indexOf('[');
  return JSON.parse(out.slice(start, out.lastIndexOf(']') + 1));
}

/** `wrangler r2 bucket list`: bucket names (its "name:" lines). */
export async function listBuckets() {
  const out = await wrangler(['r2', 'bucket', 'list']);
  return new Set([...out.matchAll(/^name:\s+(\S+)\s*$/gm)].map((m) => m[1]));
}

/** `wrangler queues list`: queue names (the table's name column). */
export async function listQueues() {
  const out = await wrangler(['queues', 'list']);
  return new Set([...out.matchAll(/^│\s*\S+\s*│\s*(\S+)\s*│/gm)].map((m) => m[1]).filter((name) => name !== 'name'));
}

/** `wrangler secret list`: the names of the worker's secrets; none when the worker does not exist yet. */
export async function listSecrets(configPath) {
  try {
    const out = await wrangler(['secret', 'list', '--format', 'json', '-c', configPath]);
    return new Set(JSON.parse(out.slice(out.indexOf('['), out.lastIndexOf(']') + 1)).map((s) => s.name));
  } catch (error) {
    if (/10007|not found|does not exist/i.test(error.message)) return new Set();
    throw error;
  }
}
