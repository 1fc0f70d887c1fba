import { finishImport, IMPORT_JOB_KIND, runImport } from '../src/modules/import/run-import';
import type { MessageHandler } from './dispatch';
import { QUEUE_MAX_DELIVERIES } from './messages';

/**
 * Runs or resumes a contact import. A failure is retried by the queue (the job resumes at its cursor); the
 * last attempt marks the import failed with the error, so it never stays 'processing' in the dead-letter queue.
 */
const contactImport: MessageHandler = async (body, env, message) => {
  const orgId = Number(body.orgId);
  const importId = Number(body.importId);
  if (!Number.isSafeInteger(orgId) || !Number.isSafeInteger(importId)) {
    console.error(JSON.stringify({ level: 'error', queue: 'import', error: 'malformed message', body }));
    return; // can never succeed: acknowledge
  }
  try {
    await runImport(env, orgId, importId);
  } catch (error) {
    if (message.attempts < QUEUE_MAX_DELIVERIES) throw error;
    console.error(JSON.stringify({ level: 'error', queue: 'import', import_id: importId, error: String(error) }));
    await finishImport(env, orgId, importId, 'fail', `The import stopped after ${message.attempts} attempts: ${String(error).slice(0, 500)}`);
  }
};

/** Handlers of the import queue (CSV import jobs), by kind. */
export const importHandlers: Record<string, MessageHandler> = {
  [IMPORT_JOB_KIND]: contactImport,
};
