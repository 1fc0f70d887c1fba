import { buildApp, buildTrackingApp, isTrackingRequest } from './app';
import { createDb } from './db/client';
import type { Env } from './env';
import { pruneSessions } from './modules/auth/sessions';
import { pruneRateLimits } from './lib/rate-limit';
import { rescueStalledImports } from './modules/import/rescue';
import { rescueStalledMessages } from './modules/message/send-message';
import { wakeStalledBroadcasts } from './modules/broadcast/rescue';
import { resetDemoIfDue } from './modules/demo/reset';
import { rescueStalledSystemMails } from './modules/system-mail/rescue';
import { archiveOldMessages } from './modules/retention/archive';
import { cleanUpStaleFiles } from './modules/files/cleanup';
import { measureDataVolumeIfDue } from './modules/stats/data-volume';
import { repairListCountsIfDue } from './modules/stats/list-counts';
import { countSpilledHits } from './modules/tracking/spill';
import { dispatchQueue } from '../queues/dispatch';
import type { AnyQueueBody } from './queue-bodies';

export { BroadcastRunner } from '../durable-objects/broadcast-runner';
export { OrgHub } from '../durable-objects/org-hub';

const app = buildApp();
const tracking = buildTrackingApp();

export default {
  fetch: (request, env, ctx) => (isTrackingRequest(request) ? tracking : app).fetch(request, env, ctx),
  queue: (batch, env) => dispatchQueue(batch, env),
  /**
   * Cron: housekeeping of expired sessions and stale rate-limit windows; imports, sends and system mails whose
   * job was lost go again, forgotten broadcasts are woken, tracking hits the events queue refused are counted; the
   * shared demo is reset when due. Storage: messages past their retention are archived to R2, stale import files
   * removed, and data volume measured hourly; the lists' kept counts are repaired daily.
   */
  scheduled: async (_controller, env, ctx) => {
    const db = createDb(env.DB);
    const jobs = {
      pruneSessions: () => pruneSessions(db),
      pruneRateLimits: () => pruneRateLimits(db),
      rescueStalledImports: () => rescueStalledImports(db, env),
      rescueStalledMessages: () => rescueStalledMessages(db, env),
      rescueStalledSystemMails: () => rescueStalledSystemMails(db, env),
      wakeStalledBroadcasts: () => wakeStalledBroadcasts(db, env),
      countSpilledHits: () => countSpilledHits(db, env),
      resetDemoIfDue: () => resetDemoIfDue(env, db),
      cleanUpStaleFiles: () => cleanUpStaleFiles(db, env.FILES),
      // Archiving first, so the hour's measurement sees what stayed.
      archiveAndMeasure: () => archiveOldMessages(db, env).then(() => measureDataVolumeIfDue(db)),
      // Once a day: the lists' kept counts recomputed from the rows, and any drift reported.
      repairListCounts: () => repairListCountsIfDue(db),
    };
    // Independent jobs: one that fails is logged and does not hold up or hide the others.
    const run = async ([name, job]: [string, () => Promise<unknown>]) => {
      try {
        await job();
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', cron: name, error: String(error) }));
      }
    };
    ctx.waitUntil(Promise.all(Object.entries(jobs).map(run)));
  },
} satisfies ExportedHandler<Env, AnyQueueBody>;
