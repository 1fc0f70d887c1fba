// bench:pages — how fast do Relay's public pages load on a phone? Lighthouse (its mobile profile: a mid-range phone,
// simulated slow 4G) drives the Debian Chromium the tests use against the local platform, RUNS times each (default 3),
// on: the public unsubscribe page (a real signed link, made by the template preview), the sign-in page, the dashboard
// (signed in), and as the baseline a minimal static html page served by the same worker (written into a copy of the
// built console's files for this run only). Prints each page's median performance score, largest contentful paint
// and bytes transferred, the goals, and last:
// `pages: <unsubscribe LCP> ms | static page: <its LCP> ms | ratio <x>`.
// Run: npm run bench:pages [RUNS=...] [DETAILS=1: each run's largest transfers and paint timings]
// [ONLY=<page name>,...: that page besides the unsubscribe and static pages]
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { BIN, ROOT, run } from '../../scripts/lib/run.mjs';
import { SEED_USER } from '../../scripts/lib/seed-data.mjs';
import { apiRequest, closeHttp, signIn } from './support/http.mjs';
import { startBenchPlatform } from './support/platform.mjs';

const RUNS = Number(process.env.RUNS) || 3;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const GOALS = { ratio: 1.3, unsubscribeScore: 95, signInScore: 90 };

/** The baseline: about as much text as the unsubscribe page, nothing else. */
const BASELINE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Static page</title></head><body><main><h1>Unsubscribe</h1><p>Emails from Acme Shop. This static page is the benchmark's baseline: html only,
served by the same worker from its assets.</p></main></body></html>`;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The unsubscribe link of the seeded organisation's first contact, as the template preview renders it. */
async function unsubscribeLink(platform, token) {
  const api = async (method, p, json) => {
    const res = await apiRequest(platform.port, platform.host, { method, path: `/api/v1${p}`, token, json });
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const [contact] = (await api('GET', '/contact?page_size=1')).items;
  const template = (
    await api('POST', '/template', { type: 'email', name: 'Pages bench', subject: 'Hi', body: '<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>' })
  ).data;
  const { body } = (await api('POST', `/template/${template.id}/preview`, { contact_id: contact.id })).data;
  const link = /href="([^"]*\/unsubscribe\?m=[^"]+)"/.exec(body)?.[1];
  if (!link) throw new Error(`no unsubscribe link in the preview: ${body}`);
  // On the bench's port (PUBLIC_URL names the default one).
  const url = new URL(link.replaceAll('&amp;', '&'));
  return `http://${platform.host}${url.pathname}${url.search}`;
}

/**
 * One Lighthouse run of `url` (mobile, performance only); storage is kept when `keepStorage` (a signed-in page). A run
 * whose trace Lighthouse could not record (it asks to run again) is run again, twice at most.
 */
async function measure(port, url, keepStorage = false, attempt = 1) {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: keepStorage });
  const lhr = result?.lhr;
  if (lhr?.runtimeError && attempt < 3 && /run Lighthouse again/i.test(lhr.runtimeError.message)) return measure(port, url, keepStorage, attempt + 1);
  if (!lhr || lhr.runtimeError) throw new Error(`lighthouse failed on ${url}: ${lhr?.runtimeError?.message ?? 'no result'}`);
  if (process.env.DETAILS) {
    const requests = lhr.audits['network-requests'].details.items.sort((a, b) => b.transferSize - a.transferSize).slice(0, 8);
    for (const r of requests) console.log(`  ${(r.transferSize / 1024).toFixed(1)} KB ${r.url.replace(/^https?:\/\/[^/]+/, '')}`);
    for (const id of [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'speed-index',
      'cumulative-layout-shift',
      'bootup-time',
      'long-tasks',
    ])
      console.log(`  ${id}: ${lhr.audits[id]?.displayValue ?? ''} ${JSON.stringify(lhr.audits[id]?.details?.items?.[0] ?? '').slice(0, 300)}`);
    for (const task of lhr.audits['long-tasks']?.details?.items ?? [])
      console.log(`  long task ${Math.round(task.duration)} ms at ${Math.round(task.startTime)} ms: ${task.url.replace(/^https?:\/\/[^/]+/, '')}`);
    for (const shift of lhr.audits['layout-shifts']?.details?.items ?? [])
      console.log(`  shift ${shift.score?.toFixed(3)}: ${shift.node?.snippet ?? ''} ${shift.node?.selector ?? ''}`);
  }
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    bytes: lhr.audits['total-byte-weight'].numericValue,
  };
}

async function main() {
  console.log('building the console (vite build)');
  await run(path.join(BIN, 'vite'), ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { quiet: true, cwd: ROOT });
  const assets = mkdtempSync(path.join(tmpdir(), 'bench-pages-assets-'));
  cpSync(path.join(ROOT, 'dist', 'web'), assets, { recursive: true });
  writeFileSync(path.join(assets, 'static-baseline.html'), BASELINE_HTML);
  let platform = null;
  let chrome = null;
  try {
    platform = await startBenchPlatform('pages', { assetsDir: assets, logLevel: 'warn' });
    const token = await signIn(platform.port, platform.host);
    const origin = `http://${platform.host}`;
    const pages = [
      { name: 'unsubscribe page', url: await unsubscribeLink(platform, token) },
      { name: 'sign-in page', url: `${origin}/` },
      { name: 'dashboard', url: `${origin}/`, signedIn: true },
      // The assets server answers a .html name by redirecting to the name without it: ask for that at once.
      { name: 'static page', url: `${origin}/static-baseline` },
    ];
    chrome = await chromeLauncher.launch({
      chromePath: CHROMIUM,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-dev-shm-usage', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
    });
    const figures = {};
    for (const page of pages) {
      if (process.env.ONLY && !process.env.ONLY.split(',').includes(page.name) && page.name !== 'unsubscribe page' && page.name !== 'static page') continue;
      if (page.signedIn) {
        // Signed in once through the sign-in form; Lighthouse then keeps the browser's storage.
        const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
        const tab = await browser.newPage();
        const field = (id) => tab.waitForSelector(`[data-testid="${id}"]`, { timeout: 30_000 });
        await tab.goto(page.url);
        await (await field('signin-tab-password')).click();
        await (await field('signin-username')).type(SEED_USER.username);
        await (await field('signin-password')).type(SEED_USER.password);
        await (await field('signin-submit')).click();
        await tab.waitForSelector('[data-testid="dashboard"]', { timeout: 30_000 });
        await tab.close();
        await browser.disconnect();
      }
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(chrome.port, page.url, page.signedIn));
      const m = { score: median(runs.map((r) => r.score)), lcp: median(runs.map((r) => r.lcp)), bytes: median(runs.map((r) => r.bytes)) };
      figures[page.name] = m;
      console.log(
        `${page.name}: performance ${m.score} (runs ${runs.map((r) => r.score).join(', ')}), LCP ${Math.round(m.lcp)} ms, ${(m.bytes / 1024).toFixed(1)} KB transferred`,
      );
    }
    const unsubscribe = figures['unsubscribe page'];
    const baseline = figures['static page'];
    const ratio = unsubscribe.lcp / baseline.lcp;
    const met = (ok) => (ok ? 'met' : 'NOT met');
    console.log(
      `goals: ratio at most ${GOALS.ratio}: ${met(ratio <= GOALS.ratio)}; unsubscribe page at least ${GOALS.unsubscribeScore}: ${met(unsubscribe.score >= GOALS.unsubscribeScore)}; sign-in page at least ${GOALS.signInScore}: ${met(figures['sign-in page'].score >= GOALS.signInScore)}`,
    );
    console.log(`pages: ${Math.round(unsubscribe.lcp)} ms | static page: ${Math.round(baseline.lcp)} ms | ratio ${ratio.toFixed(2)}`);
  } finally {
    closeHttp();
    chrome?.kill();
    await platform?.stop();
    rmSync(assets, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
