// Headless Chromium for the browser tests: Debian's `chromium` package, driven by playwright-core
// (Playwright's own browser download does not work on this machine kind).
import { existsSync } from 'node:fs';
import { CommandError, run, step } from './run.mjs';

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

/**
 * Makes sure Chromium is there: installs Debian's `chromium` with apt-get when running as root, and
 * otherwise explains what to install and fails.
 */
export async function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const canApt = existsSync('/usr/bin/apt-get');
  if (!isRoot || !canApt || process.env.CHROMIUM_PATH) {
    throw new CommandError(
      `The browser tests need Chromium at ${CHROMIUM_PATH}, and it is missing.\n` +
        (canApt
          ? `Install it with:  sudo apt-get update && sudo apt-get install -y chromium\n`
          : `Install Chromium with your system's package manager.\n`) +
        `Or point CHROMIUM_PATH at a Chromium binary you already have.`,
    );
  }
  step('Installing Chromium (apt-get install -y chromium)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env });
  await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env });
  if (!existsSync(CHROMIUM_PATH)) throw new CommandError(`apt-get installed chromium but ${CHROMIUM_PATH} is still missing`);
}
