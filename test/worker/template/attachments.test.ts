import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readMultipart, multipartBoundary, type PartInfo } from '../../../src/modules/template/multipart';
import { call } from '../helpers';
import { createTemplate, newOrg, type Org } from '../channel-helpers';

const MAX = 15_000_000;

function upload(o: Org, templateId: number, files: File[], extra?: (form: FormData) => void) {
  const form = new FormData();
  for (const file of files) form.append('file', file);
  extra?.(form);
  return call(o.org, `/api/v1/template/${templateId}/attachment`, { method: 'POST', token: o.token, body: form });
}

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

async function storedKeys(orgId: number, templateId: number) {
  const listing = await env.FILES.list({ prefix: `orgs/${orgId}/templates/${templateId}/` });
  return listing.objects.map((o) => o.key);
}

async function attachmentRows(templateId: number) {
  return (await env.DB.prepare('SELECT * FROM template_attachments WHERE template_id = ?').bind(templateId).all()).results;
}

describe('template attachments in R2', () => {
  it('stores several files under the organisation, lists, downloads and deletes them', async () => {
    const o = await newOrg();
    const t = await createTemplate(o, { type: 'email', name: 'With files', body: 'x' });
    const pdf = new File([bytes(1000, 1)], 'report.pdf', { type: 'application/octet-stream' });
    const png = new File([bytes(MAX, 2)], 'C:\\photos\\Logo.PNG');
    const res = await upload(o, t.id, [pdf, png], (form) => form.append('note', 'ignored field'));
    expect(res.status).toBe(201);
    const data = ((await res.json()) as { data: { attachments: { id: number; file_name: string; size: number; content_type: string }[] } }).data;
    expect(data.attachments.map(({ file_name, size, content_type }) => ({ file_name, size, content_type }))).toEqual([
      { file_name: 'report.pdf', size: 1000, content_type: 'application/pdf' },
      { file_name: 'Logo.PNG', size: MAX, content_type: 'image/png' },
    ]);
    const keys = await storedKeys(o.orgId, t.id);
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(new RegExp(`^orgs/${o.orgId}/templates/${t.id}/[0-9a-f-]{36}$`));

    const [first, second] = data.attachments;
    const download = await call(o.org, `/api/v1/template/${t.id}/attachment/${first.id}`, { token: o.token });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toContain('filename="report.pdf"');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    const got = new Uint8Array(await download.arrayBuffer());
    expect(got.length).toBe(1000);
    expect(got.every((b) => b === 1)).toBe(true);
    expect((await o.api('GET', `/template/${t.id}`)).body.data.attachments).toHaveLength(2);

    const del = await o.api('DELETE', `/template/${t.id}/attachment/${second.id}`);
    expect(del.body).toEqual({ data: { deleted: 1 } });
    expect(await storedKeys(o.orgId, t.id)).toHaveLength(1);
    expect((await o.api('GET', `/template/${t.id}`)).body.data.attachments.map((a: { file_name: string }) => a.file_name)).toEqual(['report.pdf']);
    expect((await call(o.org, `/api/v1/template/${t.id}/attachment/${second.id}`, { token: o.token })).status).toBe(404);

    // Deleting the template removes its files from R2 too.
    expect((await o.api('DELETE', `/template/${t.id}`)).status).toBe(200);
    expect(await storedKeys(o.orgId, t.id)).toEqual([]);
  });

  it('refuses unsupported types and too large files with the spec messages, storing nothing', async () => {
    const o = await newOrg();
    const t = await createTemplate(o, { type: 'email', name: 'Files', body: 'x' });
    let res = await upload(o, t.id, [new File([bytes(10)], 'ok.txt'), new File([bytes(10)], 'evil.exe'), new File([bytes(10)], 'noext')]);
    expect(res.status).toBe(422);
    let body = (await res.json()) as { error: { fields: Record<string, string[]> } };
    expect(body.error.fields).toEqual({ attachments: ['File evil.exe has an unsupported type', 'File noext has an unsupported type'] });

    res = await upload(o, t.id, [new File([bytes(MAX + 1)], 'big.pdf'), new File([bytes(5)], 'small.pdf')]);
    expect(res.status).toBe(422);
    body = (await res.json()) as typeof body;
    expect(body.error.fields).toEqual({ attachments: ['File big.pdf is larger than 15 MB'] });

    res = await upload(o, t.id, [new File([bytes(MAX + 1)], 'a.zip'), new File([bytes(1)], 'fine.csv'), new File([bytes(MAX + 10)], 'b.docx')]);
    body = (await res.json()) as typeof body;
    expect(body.error.fields).toEqual({ attachments: ['Files a.zip, b.docx are larger than 15 MB'] });

    res = await upload(o, t.id, []);
    expect(res.status).toBe(422);
    res = await call(o.org, `/api/v1/template/${t.id}/attachment`, { method: 'POST', token: o.token, json: { file: 'x' } });
    expect(res.status).toBe(422);

    expect(await storedKeys(o.orgId, t.id)).toEqual([]);
    expect(await attachmentRows(t.id)).toEqual([]);
  });

  it('removes the files of templates deleted in bulk and keeps the others', async () => {
    const o = await newOrg();
    const doomed: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t = await createTemplate(o, { type: 'html', name: `bulk ${i}`, body: 'x' });
      expect((await upload(o, t.id, [new File([bytes(3)], `f${i}.txt`)])).status).toBe(201);
      doomed.push(t.id);
    }
    const kept = await createTemplate(o, { type: 'html', name: 'kept', body: 'x' });
    expect((await upload(o, kept.id, [new File([bytes(3)], 'keep.txt')])).status).toBe(201);
    const res = await o.api('DELETE', '/template', { ids: doomed });
    expect(res.body).toEqual({ data: { deleted: 6, more: false } });
    for (const id of doomed) expect(await storedKeys(o.orgId, id)).toEqual([]);
    expect(await storedKeys(o.orgId, kept.id)).toHaveLength(1);
    const few = await createTemplate(o, { type: 'html', name: 'few', body: 'x' });
    await upload(o, few.id, [new File([bytes(3)], 'one.txt'), new File([bytes(3)], 'two.txt')]);
    expect((await o.api('DELETE', '/template', { ids: [few.id] })).body.data.deleted).toBe(1);
    expect(await storedKeys(o.orgId, few.id)).toEqual([]);
    expect(await storedKeys(o.orgId, kept.id)).toHaveLength(1);
  });

  it('reads a multipart stream whatever its chunking', async () => {
    const boundary = '----relay-test-boundary';
    const content = `line one\r\n--not-a-boundary\r\n${'\u00e9'.repeat(300)}`;
    const raw = new TextEncoder().encode(
      `preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="na\\"me.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt\r\nContent-Type: text/plain\r\n\r\n${content}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nvalue\r\n--${boundary}--\r\nepilogue`,
    );
    expect(multipartBoundary(`multipart/form-data; boundary="${boundary}"`)).toBe(boundary);
    expect(multipartBoundary('application/json')).toBeNull();
    for (const chunkSize of [1, 2, 3, 7, 64, raw.length]) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < raw.length; i += chunkSize) controller.enqueue(raw.slice(i, i + chunkSize));
          controller.close();
        },
      });
      const parts: { info: PartInfo; text: string }[] = [];
      await readMultipart(stream, boundary, (info) => {
        const chunks: Uint8Array[] = [];
        return {
          write: (c) => void chunks.push(c),
          end: () => void parts.push({ info, text: new TextDecoder().decode(new Uint8Array(chunks.flatMap((c) => [...c]))) }),
        };
      });
      expect(parts).toEqual([
        { info: { name: 'file', filename: 'résumé.txt', contentType: 'text/plain' }, text: content },
        { info: { name: 'other', filename: null, contentType: null }, text: 'value' },
      ]);
    }
    const truncated = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(raw.slice(0, 120));
        controller.close();
      },
    });
    await expect(readMultipart(truncated, boundary, () => ({ write() {}, end() {} }))).rejects.toThrow(/ended before/);
  });
});

describe('organisation A cannot reach organisation B attachments', () => {
  it('cannot upload to, download or delete them, nor reach them through its own template', async () => {
    const a = await newOrg('aa');
    const b = await newOrg('ab');
    const bt = await createTemplate(b, { type: 'email', name: 'B', body: 'x' });
    const at = await createTemplate(a, { type: 'email', name: 'A', body: 'x' });
    const res = await upload(b, bt.id, [new File([bytes(10)], 'secret.pdf')]);
    const attachment = ((await res.json()) as { data: { attachments: { id: number }[] } }).data.attachments[0];

    expect((await upload(a, bt.id, [new File([bytes(10)], 'x.pdf')])).status).toBe(404);
    expect((await call(a.org, `/api/v1/template/${bt.id}/attachment/${attachment.id}`, { token: a.token })).status).toBe(404);
    expect((await call(a.org, `/api/v1/template/${at.id}/attachment/${attachment.id}`, { token: a.token })).status).toBe(404);
    expect((await a.api('DELETE', `/template/${bt.id}/attachment/${attachment.id}`)).status).toBe(404);
    expect((await a.api('DELETE', `/template/${at.id}/attachment/${attachment.id}`)).status).toBe(404);
    expect(await storedKeys(b.orgId, bt.id)).toHaveLength(1);
    expect(await storedKeys(a.orgId, bt.id)).toEqual([]);
    expect((await call(b.org, `/api/v1/template/${bt.id}/attachment/${attachment.id}`, { token: b.token })).status).toBe(200);
  });
});
