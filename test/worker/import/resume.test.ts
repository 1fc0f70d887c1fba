import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { importHandlers } from '../../../queues/import';
import { QUEUE_MAX_DELIVERIES } from '../../../src/queue-names';
import { SendChannels } from '../../../src/modules/sending/channels';
import type { ImportJobMessage } from '../../../src/modules/import/run-import';
import { newReadStats } from '../../../src/modules/import/file-reader';
import { runImport } from '../../../src/modules/import/run-import';
import type { ImportMappingEntry } from '../../../src/shared/contracts/import';
import { createImportRow, getImport, newOrg, storedContacts, upload, waitForImport, type Org } from './support';

// Idempotency and resumption: the job is run directly here on import rows created straight in D1, so
// nothing else (the real queue) runs them meanwhile, except where a test uses the queue on purpose.

const mapping: ImportMappingEntry[] = [
  { column: 0, target: 'name' },
  { column: 1, target: 'address', address_type: 'email' },
  { column: 2, target: 'tags' },
];

/** n rows; rows i and i + repeatEvery share an e-mail (so later batches update what earlier ones created). */
function csvOf(n: number, repeatEvery = 0) {
  const lines = ['name,email,tags'];
  for (let i = 0; i < n; i++) {
    const who = repeatEvery && i >= repeatEvery ? i - repeatEvery : i;
    lines.push(`"Person ${i}",person${who}@example.com,"t${i % 3};all"`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

async function importRow(_org: Org, id: number) {
  return env.DB.prepare('SELECT status, cursor_bytes, cursor_row, created_count, updated_count, rejected_count, updated_at FROM imports WHERE id = ?')
    .bind(id)
    .first<{
      status: string;
      cursor_bytes: number;
      cursor_row: number;
      created_count: number;
      updated_count: number;
      rejected_count: number;
      updated_at: string;
    }>();
}

/** The import queue's handler as the dispatcher calls it, on delivery `attempt`. */
const runJob = (body: ImportJobMessage, attempt: number) => importHandlers['contact-import'](body, env, attempt, { channels: new SendChannels(env) });

describe('an interrupted import', () => {
  it('resumes after the last committed batch and creates no duplicate contacts', async () => {
    const org = await newOrg('res');
    const csv = csvOf(50, 30);
    const key = await upload(org, csv);
    const id = await createImportRow(org, key, mapping);

    const crash = async (batch: number) => {
      if (batch === 2) throw new Error('worker evicted');
    };
    await expect(runImport(env, org.orgId, id, { batchRows: 10, afterCommit: crash })).rejects.toThrow('worker evicted');
    const interrupted = await importRow(org, id);
    expect(interrupted).toMatchObject({ status: 'processing', cursor_row: 21, created_count: 20, updated_count: 0 });
    expect(await storedContacts(org.orgId)).toHaveLength(20);
    // The cursor points just after row 21 (header + 20 rows), in bytes.
    expect(interrupted!.cursor_bytes).toBe(new TextEncoder().encode(`${csv.split('\r\n').slice(0, 21).join('\r\n')}\r\n`).length);

    // Redelivery: the job runs again from the start of its message.
    expect(await runImport(env, org.orgId, id, { batchRows: 10 })).toBe('finished');
    const done = await importRow(org, id);
    expect(done).toMatchObject({ status: 'success', cursor_row: 51, created_count: 30, updated_count: 20, rejected_count: 0 });
    const contacts = await storedContacts(org.orgId);
    expect(contacts).toHaveLength(30);
    expect(new Set(contacts.flatMap((c) => c.addresses)).size).toBe(30);
    // Rows 31..50 updated persons 0..19: their names are the later rows' names, tags the union.
    expect(contacts[0]).toMatchObject({ name: 'Person 30', addresses: ['email:person0@example.com'], tags: ['all', 't0'] });
    expect(contacts[1].tags).toEqual(['all', 't1']);
  });

  it('does nothing when run again after success', async () => {
    const org = await newOrg('res');
    const id = await createImportRow(org, await upload(org, csvOf(5)), mapping);
    expect(await runImport(env, org.orgId, id)).toBe('finished');
    const before = await importRow(org, id);
    const contacts = await storedContacts(org.orgId);
    expect(await runImport(env, org.orgId, id)).toBe('nothing-to-do');
    expect(await importRow(org, id)).toEqual(before);
    expect(await storedContacts(org.orgId)).toEqual(contacts);
  });

  it('cannot commit a batch when another run moved the cursor (two deliveries at once)', async () => {
    const org = await newOrg('res');
    const id = await createImportRow(org, await upload(org, csvOf(30)), mapping);
    // After the first batch, pretend a second delivery of the message committed further meanwhile.
    const other = async (batch: number) => {
      if (batch === 1) await env.DB.prepare('UPDATE imports SET cursor_bytes = cursor_bytes + 1 WHERE id = ?').bind(id).run();
    };
    expect(await runImport(env, org.orgId, id, { batchRows: 10, afterCommit: other })).toBe('superseded');
    expect(await importRow(org, id)).toMatchObject({ status: 'processing', created_count: 10 });
    expect(await storedContacts(org.orgId)).toHaveLength(10);
  });

  it('marks the import failed on the last attempt, and leaves earlier failures to the queue retry', async () => {
    const org = await newOrg('res');
    const id = await createImportRow(org, await upload(org, csvOf(3)), 'not a mapping');
    const body = { kind: 'contact-import', orgId: org.orgId, importId: id } as const;
    await expect(runJob(body, 1)).rejects.toThrow();
    await expect(runJob(body, QUEUE_MAX_DELIVERIES - 1)).rejects.toThrow();
    expect((await importRow(org, id))?.status).toBe('processing');
    await runJob(body, QUEUE_MAX_DELIVERIES);
    const failed = await getImport(org, id);
    expect(failed.status).toBe('fail');
    expect(failed.error).toMatch(new RegExp(`^The import stopped after ${QUEUE_MAX_DELIVERIES} attempts: `));
    expect(failed.finished_at).not.toBeNull();
  });

  it('fails with a clear error when its file is gone', async () => {
    const org = await newOrg('res');
    const key = await upload(org, csvOf(3));
    const id = await createImportRow(org, key, mapping);
    await env.FILES.delete(key);
    expect(await runImport(env, org.orgId, id)).toBe('finished');
    expect(await getImport(org, id)).toMatchObject({ status: 'fail', error: 'The uploaded file was not found. Upload it again.' });
  });
});

describe('bounded memory', () => {
  it('reads a file larger than any buffer it uses in R2 range reads and parses it in pieces', async () => {
    const org = await newOrg('mem');
    const csv = csvOf(3000); // ~140 KB
    const size = new TextEncoder().encode(csv).length;
    const id = await createImportRow(org, await upload(org, csv), mapping);
    const stats = newReadStats();
    const parser = { maxBufferBytes: 0 };
    const windowBytes = 8 * 1024;
    expect(await runImport(env, org.orgId, id, { windowBytes, batchRows: 500, stats, parser })).toBe('finished');
    expect(size).toBeGreaterThan(10 * windowBytes);
    expect(stats.reads).toBe(Math.ceil(size / windowBytes));
    expect(stats.bytes).toBe(size);
    expect(stats.maxChunkBytes).toBeLessThanOrEqual(windowBytes);
    expect(parser.maxBufferBytes).toBeLessThan(windowBytes + 200);
    expect(await importRow(org, id)).toMatchObject({ status: 'success', created_count: 3000 });
  });

  it('stops after its time slice and continues through the real queue without duplicates', async () => {
    const org = await newOrg('mem');
    const id = await createImportRow(org, await upload(org, csvOf(40, 25)), mapping);
    expect(await runImport(env, org.orgId, id, { batchRows: 10, sliceMs: 0 })).toBe('continued');
    expect(await importRow(org, id)).toMatchObject({ status: 'processing', cursor_row: 11, created_count: 10 });
    // The continuation message goes through the queue and its consumer finishes the import.
    const done = await waitForImport(org, id);
    expect(done).toMatchObject({ status: 'success', created_count: 25, updated_count: 15, processed_rows: 41 });
    expect(await storedContacts(org.orgId)).toHaveLength(25);
  });
});
