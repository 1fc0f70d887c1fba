import puppeteer from 'puppeteer-core';
import { startBenchPlatform } from './support/platform.mjs';
import fs from 'node:fs';
const platform = await startBenchPlatform('prof', { assetsDir: '/work/main/dist/web', logLevel: 'warn' });
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', `--host-resolver-rules=MAP *.localhost 127.0.0.1`] });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 412, height: 823 });
  await page.goto(`http://${platform.host}/`);
  await page.waitForSelector('[data-testid=signin-card]');
  await new Promise((r) => setTimeout(r, 500));
  fs.writeFileSync('/tmp/prof/root.html', await page.evaluate(() => document.getElementById('root').innerHTML));
  fs.writeFileSync('/tmp/prof/head.html', await page.evaluate(() => document.head.innerHTML));
  await page.screenshot({ path: '/tmp/prof/signin-phone.png' });
} finally {
  await browser.close();
  await platform.stop();
}
