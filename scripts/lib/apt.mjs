// Debian packages the tests need (Chromium for the browser tests, SpamAssassin for the spam-filter test): installed
// with apt-get when running as root on a machine that has it, otherwise explained.
import { existsSync } from 'node:fs';
import { CommandError, run, step } from './run.mjs';

let updated = false;

/**
 * Makes sure `binary` exists, installing Debian's `pkg` when it does not (apt-get update once per run). `hint` says
 * what to do instead where apt-get cannot run (not root, no apt, or an override variable set). `log`: a file
 * descriptor apt-get's output goes to instead of the terminal (an install running beside other work).
 */
export async function ensureAptPackage({ pkg, binary, hint = '', overridden = false, log }) {
  if (existsSync(binary)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const canApt = existsSync('/usr/bin/apt-get');
  if (!isRoot || !canApt || overridden) {
    throw new CommandError(
      `The tests need ${binary} (Debian package ${pkg}), and it is missing.\n` +
        (canApt ? `Install it with:  sudo apt-get update && sudo apt-get install -y ${pkg}\n` : `Install ${pkg} with your system's package manager.\n`) +
        hint,
    );
  }
  step(`Installing ${pkg} (apt-get install -y ${pkg})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const output = log === undefined ? {} : { stdio: ['ignore', log, log], quiet: true };
  if (!updated) {
    await run('apt-get', ['update'], { env, ...output });
    updated = true;
  }
  await run('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env, ...output });
  if (!existsSync(binary)) throw new CommandError(`apt-get installed ${pkg} but ${binary} is still missing`);
}
