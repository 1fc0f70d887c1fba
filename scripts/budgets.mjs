#!/usr/bin/env node
// `npm run budgets`: what the worker costs to ship and to start, from wrangler's own measurement
// (`wrangler check startup`: it bundles the worker as `wrangler deploy` would, then profiles its startup in workerd).
// Fails when the bundle passes BUNDLE_GZIP_BUDGET_KIB (Cloudflare refuses a worker above its plan's limit: 3 MB
// gzip on Free, 10 MB on Paid; we keep far under it, since every cold start loads the whole bundle) or when the
// startup passes STARTUP_BUDGET_MS (Cloudflare's limit is 1 s of startup CPU; this machine's CPU is not theirs, so
// the budget leaves room). The npm test command runs it as a stage.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export const BUNDLE_GZIP_BUDGET_KIB = 1024;
export const STARTUP_BUDGET_MS = 400;

const root = path.resolve(import.meta.dirname, '..');

/** Reads wrangler's report: "Bundle: 3065.90 KiB / gzip: 575.00 KiB" and the startup profile's "Active: 113.3 ms". */
export function readStartupReport(text) {
  const bundle = /Bundle:\s*([\d.]+)\s*KiB\s*\/\s*gzip:\s*([\d.]+)\s*KiB/.exec(text);
  const active = /Active:\s*([\d.]+)\s*ms/.exec(text);
  if (!bundle || !active) return null;
  return { bundleKib: Number(bundle[1]), gzipKib: Number(bundle[2]), startupMs: Number(active[1]) };
}

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'relay-startup-'));
  // wrangler wants the assets folder to exist; the console's files are not part of the worker's bundle.
  await mkdir(path.join(root, 'dist', 'web'), { recursive: true });
  try {
    const wrangler = path.join(root, 'node_modules', '.bin', 'wrangler');
    const { stdout, stderr } = await promisify(execFile)(wrangler, ['check', 'startup', '--outfile', path.join(dir, 'startup.cpuprofile')], {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 300_000,
    });
    const report = readStartupReport(stdout + stderr);
    if (!report) throw new Error(`wrangler check startup printed no figures:\n${stdout}${stderr}`);
    const over = [];
    if (report.gzipKib > BUNDLE_GZIP_BUDGET_KIB) over.push(`the bundle is ${report.gzipKib} KiB gzip, above its budget of ${BUNDLE_GZIP_BUDGET_KIB} KiB`);
    if (report.startupMs > STARTUP_BUDGET_MS) over.push(`startup took ${report.startupMs} ms of CPU, above its budget of ${STARTUP_BUDGET_MS} ms`);
    console.log(`worker bundle: ${report.bundleKib} KiB, ${report.gzipKib} KiB gzip (budget ${BUNDLE_GZIP_BUDGET_KIB} KiB gzip)`);
    console.log(`worker startup: ${report.startupMs} ms of CPU in local workerd (budget ${STARTUP_BUDGET_MS} ms; Cloudflare's limit is 1 s)`);
    if (over.length) {
      console.error(`Over budget: ${over.join('; ')}.`);
      process.exitCode = 1;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) {
  main().catch((error) => {
    console.error(error.message ?? error);
    process.exitCode = 1;
  });
}
