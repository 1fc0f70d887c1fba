// File and data volume on the Workers runtime: the R2 bytes of each organisation kept on every upload and delete
// (attachments, template deletion, imports, the cleanup of stale import files), gone with the organisation; the
// hourly measurement of its share of D1; both on the dashboard by day, for its own organisation only.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { cleanUpStaleFiles, FILE_GRACE_MS } from '../../../src/modules/files/cleanup';
import { measureDataVolume, measureDataVolumeIfDue } from '../../../src/modules/stats/data-volume';
import { createTemplate, insertContact, newOrg, type Org } from '../channel-helpers';
import { appFetch, call } from '../helpers';

const fileBytes = async (orgId: number) =>
  (await env.DB.prepare('SELECT file_bytes FROM org_usage WHERE org_id = ?').bind(orgId).first<{ file_bytes: number }>())?.file_bytes ?? 0;

/** What R2 really holds under the organisation: the truth the counter must match. */
async function bytesInR2(orgId: number) {
  let total = 0;
  let cursor: string | undefined;
  do {
    const page = await env.FILES.list({ prefix: `orgs/${orgId}/`, cursor });
    total += page.objects.reduce((sum, o) => sum + o.size, 0);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return total;
}

function attach(o: Org, templateId: number, sizes: number[]) {
  const form = new FormData();
  sizes.forEach((n, i) => {
    form.append('file', new File([new Uint8Array(n).fill(1)], `f${i}.pdf`));
  });
  return call(o.org, `/api/v1/template/${templateId}/attachment`, { method: 'POST', token: o.token, body: form });
}

function uploadCsv(o: Org, csv: string) {
  return call(o.org, '/api/v1/import/upload?file_name=a.csv', { method: 'POST', token: o.token, body: csv, headers: { 'content-type': 'text/csv' } });
}

const dashboard = async (o: Org) => (await o.api('GET', '/dashboard')).body.data;

describe('file volume', () => {
  it('follows attachment uploads and deletes, template deletion and imports, and matches R2', async () => {
    const o = await newOrg('fa');
    const other = await newOrg('fb');
    const t = await createTemplate(o, { type: 'email', name: 'Files', body: 'x' });
    const up = await attach(o, t.id, [1000, 2500]);
    expect(up.status).toBe(201);
    expect(await fileBytes(o.orgId)).toBe(3500);
    const [first] = (await up.json<{ data: { attachments: { id: number }[] } }>()).data.attachments;
    expect((await o.api('DELETE', `/template/${t.id}/attachment/${first.id}`)).status).toBe(200);
    expect(await fileBytes(o.orgId)).toBe(2500);

    const csv = 'name,email\nAnn,ann@example.com\n';
    expect((await uploadCsv(o, csv)).status).toBe(201);
    expect(await fileBytes(o.orgId)).toBe(2500 + csv.length);
    // A refused upload (too large by its declared length) leaves nothing behind.
    const refused = await call(o.org, '/api/v1/import/upload?file_name=b.csv', {
      method: 'POST',
      token: o.token,
      body: '',
      headers: { 'content-type': 'text/csv' },
    });
    expect(refused.status).toBe(422);
    expect(await fileBytes(o.orgId)).toBe(2500 + csv.length);

    const t2 = await createTemplate(o, { type: 'email', name: 'More', body: 'x' });
    await attach(o, t2.id, [700]);
    expect(await fileBytes(o.orgId)).toBe(2500 + csv.length + 700);
    expect((await o.api('DELETE', `/template/${t.id}`)).status).toBe(200);
    expect(await fileBytes(o.orgId)).toBe(csv.length + 700);
    expect(await fileBytes(o.orgId)).toBe(await bytesInR2(o.orgId));
    expect(await fileBytes(other.orgId)).toBe(0);

    const d = await dashboard(o);
    expect(d.file_bytes).toBe(csv.length + 700);
    expect(d.days.at(-1).file_bytes).toBe(csv.length + 700);
    expect((await dashboard(other)).file_bytes).toBe(0);
  });

  it('cleans up uploads never started and files of long-finished imports after their grace, and counts them until then', async () => {
    const o = await newOrg('fc');
    const csv = 'name,email\nBea,bea@example.com\n';
    const abandoned = (await (await uploadCsv(o, csv)).json<{ data: { file_key: string } }>()).data.file_key;
    const used = (await (await uploadCsv(o, csv)).json<{ data: { file_key: string } }>()).data.file_key;
    const fresh = (await (await uploadCsv(o, csv)).json<{ data: { file_key: string } }>()).data.file_key;
    const longAgo = new Date(Date.now() - FILE_GRACE_MS.finishedImport - 60_000).toISOString();
    await env.DB.prepare('UPDATE stored_files SET created_at = ? WHERE key IN (?, ?)').bind(longAgo, abandoned, used).run();
    await env.DB.prepare(
      "INSERT INTO imports (org_id, file_name, file_key, file_size, status, mapping, finished_at) VALUES (?, 'a.csv', ?, ?, 'processing', '[]', NULL)",
    )
      .bind(o.orgId, used, csv.length)
      .run();
    expect(await fileBytes(o.orgId)).toBe(3 * csv.length);

    // A running import keeps its file; the abandoned upload goes; the fresh one is within its grace.
    await cleanUpStaleFiles(createDb(env.DB), env.FILES);
    expect(await env.FILES.head(abandoned)).toBeNull();
    expect(await env.FILES.head(used)).not.toBeNull();
    expect(await env.FILES.head(fresh)).not.toBeNull();
    expect(await fileBytes(o.orgId)).toBe(2 * csv.length);

    await env.DB.prepare("UPDATE imports SET status = 'success', finished_at = ? WHERE file_key = ?").bind(longAgo, used).run();
    await cleanUpStaleFiles(createDb(env.DB), env.FILES);
    expect(await env.FILES.head(used)).toBeNull();
    expect(await fileBytes(o.orgId)).toBe(csv.length);
    expect(await fileBytes(o.orgId)).toBe(await bytesInR2(o.orgId));
  });

  it('goes with the organisation when its account is deleted', async () => {
    const o = await newOrg('fd');
    const t = await createTemplate(o, { type: 'email', name: 'Files', body: 'x' });
    await attach(o, t.id, [300]);
    expect(await fileBytes(o.orgId)).toBe(300);
    const me = (await o.api('GET', '/internal-user/me')).body.data;
    const res = await o.api('DELETE', `/internal-user/${me.id}`, { confirm: me.username });
    expect(res.status, res.text).toBe(200);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM org_usage WHERE org_id = ?').bind(o.orgId).first('n')).toBe(0);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM stored_files WHERE org_id = ?').bind(o.orgId).first('n')).toBe(0);
    expect(await bytesInR2(o.orgId)).toBe(0);
  });
});

describe('data volume', () => {
  it('is measured after the first dashboard view when the cron never measured it', async () => {
    const o = await newOrg('dz');
    const view = () =>
      appFetch(
        new Request(`http://${o.org}.localhost:8787/api/v1/dashboard`, { headers: { host: `${o.org}.localhost:8787`, authorization: `Bearer ${o.token}` } }),
        { settle: true },
      ).then((r) => r.json<{ data: { data_bytes: number | null } }>().then((b) => (b.data ? b : Promise.reject(new Error(JSON.stringify(b))))));
    expect((await view()).data.data_bytes).toBeNull();
    expect((await view()).data.data_bytes).toBeGreaterThan(0);
  });

  it('splits the database between organisations by what they hold, and shows it on the dashboard', async () => {
    const big = await newOrg('da');
    const small = await newOrg('db');
    for (let i = 0; i < 60; i++) await insertContact(big.orgId, `Person ${i} with a longer name`, [{ type: 'email', value: `p${i}@example.com` }]);
    await insertContact(small.orgId, 'Solo', [{ type: 'email', value: 'solo@example.com' }]);
    const volumes = await measureDataVolume(createDb(env.DB));
    expect(volumes.get(big.orgId)!).toBeGreaterThan(10 * volumes.get(small.orgId)!);
    expect(volumes.get(small.orgId)!).toBeGreaterThan(0);

    const d = await dashboard(big);
    expect(d.data_bytes).toBe(volumes.get(big.orgId));
    expect(d.data_measured_at).not.toBeNull();
    expect(d.days.at(-1).data_bytes).toBe(volumes.get(big.orgId));
    expect((await dashboard(small)).data_bytes).toBe(volumes.get(small.orgId));
    // Measured once an hour at most.
    expect(await measureDataVolumeIfDue(createDb(env.DB))).toBe(false);
    expect(await measureDataVolumeIfDue(createDb(env.DB), new Date(Date.now() + 3_700_000))).toBe(true);
  });

  it('carries the last known volumes through days without a change', async () => {
    const o = await newOrg('dc');
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
    const put = env.DB.prepare('INSERT INTO org_daily_stats (org_id, day, file_bytes, data_bytes) VALUES (?, ?, ?, ?)');
    await env.DB.batch([put.bind(o.orgId, day(20), 1000, 5000), put.bind(o.orgId, day(5), 3000, 9000)]);
    const d = await dashboard(o);
    expect(d.days[0]).toMatchObject({ file_bytes: 1000, data_bytes: 5000 });
    expect(d.days[8]).toMatchObject({ file_bytes: 3000, data_bytes: 9000 });
    expect(d.days.at(-1)).toMatchObject({ file_bytes: 3000, data_bytes: 9000 });
  });
});
