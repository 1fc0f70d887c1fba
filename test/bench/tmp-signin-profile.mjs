import puppeteer from 'puppeteer-core';
import { startBenchPlatform } from './support/platform.mjs';
import fs from 'node:fs';
const platform = await startBenchPlatform('prof', { assetsDir: '/work/main/dist/web', logLevel: 'warn' });
const browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', `--host-resolver-rules=MAP *.localhost 127.0.0.1`] });
try {
  const page = await browser.newPage();
  const cdp = await page.createCDPSession();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(`http://${platform.host}/`);
  await page.waitForSelector('[data-testid=signin-card]');
  const { profile } = await cdp.send('Profiler.stop');
  fs.writeFileSync('/tmp/prof/signin.cpuprofile', JSON.stringify(profile));
} finally {
  await browser.close();
  await platform.stop();
}
