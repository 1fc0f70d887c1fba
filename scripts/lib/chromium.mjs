// Headless Chromium for the browser tests: Debian's `chromium` package, driven by playwright-core
// (Playwright's own browser download does not work on this machine kind).
import { ensureAptPackage } from './apt.mjs';

/** The Chromium binary the browser tests launch (CHROMIUM_PATH overrides). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Flags that keep Chromium quiet and working as root in a container. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Makes sure Chromium is there: Debian's `chromium`, installed with apt-get where the tests can. */
export async function ensureChromium({ log } = {}) {
  await ensureAptPackage({
    pkg: 'chromium',
    binary: CHROMIUM_PATH,
    overridden: !!process.env.CHROMIUM_PATH,
    hint: 'Or point CHROMIUM_PATH at a Chromium binary you already have.',
    log,
  });
}
