import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { rescueStalledImports, STALLED_AFTER_MS } from '../../../src/modules/import/rescue';
import { createOrg } from '../helpers';

/** A queue that records what is sent to it. */
function recordingQueue() {
  const sent: unknown[] = [];
  return { sent, queue: { sendBatch: async (batch: { body: unknown }[]) => void sent.push(...batch.map((m) => m.body)) } as unknown as Queue };
}

async function insertImport(orgId: number, status: string, updatedAt: string) {
  const row = await env.DB.prepare(
    "INSERT INTO imports (org_id, file_name, file_key, status, mapping, updated_at) VALUES (?, 'a.csv', 'k', ?, '[]', ?) RETURNING id",
  )
    .bind(orgId, status, updatedAt)
    .first<{ id: number }>();
  return row!.id;
}

describe('rescue of stalled imports (cron)', () => {
  it('queues again the new or processing imports that have not moved for a while, and nothing else', async () => {
    const a = await createOrg('rescue-a');
    const b = await createOrg('rescue-b');
    const now = Date.now();
    const old = new Date(now - STALLED_AFTER_MS - 1000).toISOString();
    const fresh = new Date(now - 1000).toISOString();
    const stalledA = await insertImport(a.orgId, 'processing', old);
    const stalledB = await insertImport(b.orgId, 'new', old);
    await insertImport(a.orgId, 'processing', fresh);
    await insertImport(a.orgId, 'success', old);
    await insertImport(b.orgId, 'fail', old);

    const { sent, queue } = recordingQueue();
    expect(await rescueStalledImports(createDb(env.DB), { IMPORT_QUEUE: queue }, now)).toBe(2);
    expect(sent).toEqual(
      expect.arrayContaining([
        { kind: 'contact-import', orgId: a.orgId, importId: stalledA },
        { kind: 'contact-import', orgId: b.orgId, importId: stalledB },
      ]),
    );
    expect(sent).toHaveLength(2);
  });
});
