// SpamAssassin for the spam-filter test (test/e2e/spam-filter.test.ts): Debian's `spamassassin`, with the rules it
// ships. Where it cannot be installed the test says it was skipped rather than failing the run.
import { ensureAptPackage } from './apt.mjs';

export async function ensureSpamAssassin({ log } = {}) {
  try {
    await ensureAptPackage({ pkg: 'spamassassin', binary: '/usr/bin/spamassassin', log });
  } catch (error) {
    console.warn(`${error.message}\nThe spam-filter test will be skipped.`);
  }
}
