import { finishImport, runImport, type ImportJobMessage } from '../src/modules/import/run-import';
import type { Env } from '../src/env';
import type { ImportQueueBodies } from '../src/queue-bodies';
import { QUEUE_MAX_DELIVERIES } from '../src/queue-names';
import type { HandlersOf } from './handlers';

/**
 * Runs or resumes a contact import. A failure is retried by the queue (the job resumes at its cursor); the
 * last attempt marks the import failed with the error, so it never stays 'processing' in the dead-letter queue.
 */
async function contactImport(body: ImportJobMessage, env: Env, attempt: number): Promise<void> {
  const orgId = Number(body.orgId);
  const importId = Number(body.importId);
  if (!Number.isSafeInteger(orgId) || !Number.isSafeInteger(importId)) {
    console.error(JSON.stringify({ level: 'error', queue: 'import', error: 'malformed message', body }));
    return; // can never succeed: acknowledge
  }
  try {
    await runImport(env, orgId, importId);
  } catch (error) {
    if (attempt < QUEUE_MAX_DELIVERIES) throw error;
    console.error(JSON.stringify({ level: 'error', queue: 'import', import_id: importId, error: String(error) }));
    await finishImport(env, orgId, importId, 'fail', `The import stopped after ${attempt} attempts: ${String(error).slice(0, 500)}`);
  }
}

/** Handlers of the import queue (CSV import jobs), by kind. */
export const importHandlers: HandlersOf<ImportQueueBodies> = {
  'contact-import': contactImport,
};
