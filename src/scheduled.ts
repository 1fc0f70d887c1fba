import { createDb } from './db/client';
import type { Env } from './env';
import { pruneSessions } from './modules/auth/sessions';
import { wakeStalledBroadcasts } from './modules/broadcast/rescue';
import { resetDemoIfDue } from './modules/demo/reset';
import { pruneKeptMail } from './modules/bounce/kept-mail';
import { cleanUpStaleFiles } from './modules/files/cleanup';
import { rescueStalledImports } from './modules/import/rescue';
import { rescueStalledMessages } from './modules/message/send-message';
import { archiveOldMessages } from './modules/retention/archive';
import { measureDataVolumeIfDue } from './modules/stats/data-volume';
import { repairListCountsIfDue } from './modules/stats/list-counts';
import { rescueStalledSystemMails } from './modules/system-mail/rescue';
import { countSpilledHits } from './modules/tracking/spill';
import { drainLedgerDeletions } from './modules/ledger/drain';
import { measureLedgers } from './modules/ledger/size-guard';
import { recountLedgers } from './modules/ledger/recount';
import { moveMessagesToLedgers } from './modules/ledger/move';
import { pruneRateLimits } from './lib/rate-limit';
import { recheckDomains } from './modules/domain/recheck';
import { resealDomainKeys } from './modules/domain/reseal';
import { absorbOverdueEvents, pruneOldEvents } from './modules/event/housekeeping';
import { expirePendingSignups } from './modules/form/public/expiry';
import { resumeErasures } from './modules/privacy/erase/resume';

// The worker's two crons (wrangler.toml [triggers]; the local platform calls both at boot and then on the same
// schedule, scripts/lib/platform.mjs, so nothing works only in production).
//   WATCHDOG, every minute: what sending must not wait for. Broadcast runners whose alarm was lost are poked, and
//     messages (asking only the ledgers with single messages not seen finish) and system mails left claimed past
//     their lease (their delivery died) go back on the queue; messages made before the ledgers move into them.
//   HOUSEKEEPING, every 15 minutes: expired sessions and rate-limit windows, imports whose job was lost, tracking hits
//     the events queue refused, the demo reset when due, the archive of messages past their retention, stale import
//     files, the bounce handler's kept mail past 30 days, the hourly data volume, the daily repair of the lists' kept
//     counts (D1's and each ledger's), the ledgers of deleted organisations emptied and the ledgers' sizes measured
//     (src/modules/ledger), and the sending domains' DNS records re-checked once a day (a batch per run,
//     src/modules/domain/recheck.ts) and their DKIM keys re-sealed after a SECRETS_KEY rotation
//     (src/modules/domain/reseal.ts); the event stream's missed absorptions and its events
//     past 30 days (src/modules/event/housekeeping.ts); form sign-ups never confirmed (src/modules/form/public/expiry.ts);
//     erasures whose request was cut off after the contact went, finished (src/modules/privacy/erase/resume.ts).

export const WATCHDOG_CRON = '* * * * *';
export const HOUSEKEEPING_CRON = '*/15 * * * *';

type Jobs = Record<string, () => Promise<unknown>>;

function jobsOf(cron: string, env: Env): Jobs {
  const db = createDb(env.DB);
  if (cron === WATCHDOG_CRON) {
    return {
      wakeStalledBroadcasts: () => wakeStalledBroadcasts(db, env),
      rescueStalledMessages: () => rescueStalledMessages(db, env),
      rescueStalledSystemMails: () => rescueStalledSystemMails(db, env),
      // Messages made before the ledgers moved into them, a few pages a minute (src/modules/ledger/move.ts).
      moveMessagesToLedgers: () => moveMessagesToLedgers(env, db),
    };
  }
  return {
    pruneSessions: () => pruneSessions(db),
    pruneRateLimits: () => pruneRateLimits(db),
    rescueStalledImports: () => rescueStalledImports(db, env),
    countSpilledHits: () => countSpilledHits(db, env),
    resetDemoIfDue: () => resetDemoIfDue(env, db),
    cleanUpStaleFiles: () => cleanUpStaleFiles(db, env.FILES),
    // The bounce handler's kept mail past its 30 days (src/modules/bounce/kept-mail.ts).
    pruneKeptMail: () => pruneKeptMail(env.FILES),
    // Archiving first, so the hour's measurement sees what stayed.
    archiveAndMeasure: () => archiveOldMessages(db, env).then(() => measureDataVolumeIfDue(db)),
    // Once a day: the lists' kept counts recomputed from the rows, and any drift reported; D1's at 03:00 UTC, each
    // ledger's a day after its last recount (a batch per run).
    repairListCounts: () => repairListCountsIfDue(db),
    recountLedgers: () => recountLedgers(env, db),
    // The ledgers of deleted organisations emptied; every ledger's size measured once an hour (the size guard).
    drainLedgerDeletions: () => drainLedgerDeletions(env, db),
    measureLedgers: () => measureLedgers(env, db),
    // Each sending domain's records once a day, over DNS-over-HTTPS; a break is told once (src/modules/domain).
    recheckDomains: () => recheckDomains(db, env),
    // After a SECRETS_KEY rotation: the domains' DKIM keys sealed with an older entry, sealed again with the new one.
    resealDomainKeys: () => resealDomainKeys(db, env),
    // The event stream (src/modules/event): D1's events an announcement missed absorbed (and a gone organisation's
    // dropped), and the events past 30 days deleted, a turn of the ledgers per run.
    absorbOverdueEvents: () => absorbOverdueEvents(env, db),
    pruneOldEvents: () => pruneOldEvents(env, db),
    // Form sign-ups not confirmed within 7 days: their pending rows, consents and held contacts (src/modules/form).
    expirePendingSignups: () => expirePendingSignups(db),
    resumeErasures: () => resumeErasures(db, env),
  };
}

/**
 * Runs one cron's jobs side by side: one that fails is logged and does not hold up or hide the others. Each job
 * logs one line with what it answered (a count where it gives one) and how long it took.
 */
export async function runCron(cron: string, env: Env): Promise<void> {
  const run = async ([name, job]: [string, () => Promise<unknown>]) => {
    const started = Date.now();
    try {
      const result = await job();
      console.log(JSON.stringify({ level: 'info', cron, job: name, ...(typeof result === 'number' ? { count: result } : {}), ms: Date.now() - started }));
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', cron, job: name, error: String(error) }));
    }
  };
  await Promise.all(Object.entries(jobsOf(cron, env)).map(run));
}
