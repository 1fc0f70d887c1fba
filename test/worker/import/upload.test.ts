import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { storeUpload } from '../../../src/modules/import/upload';
import { ApiError } from '../../../src/lib/api-error';
import { IMPORT_MAX_BYTES, IMPORT_MESSAGES } from '../../../src/shared/contracts/import';
import { newOrg, uploadRaw } from './support';

/** A stream of `chunks` chunks of `size` bytes, with no known length. */
function streamOf(chunks: number, size: number) {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ >= chunks) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
}

async function keysUnder(prefix: string) {
  return (await env.FILES.list({ prefix })).objects.map((o) => o.key);
}

describe('POST /import/upload', () => {
  it('streams the body into R2 under the organisation and answers the key', async () => {
    const org = await newOrg('up');
    const csv = 'name,email\nAnn,ann@x.io\n';
    const res = await uploadRaw(org, csv, 'my list.csv');
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { file_key: string; file_name: string; file_size: number } };
    expect(data.file_key).toMatch(new RegExp(`^orgs/${org.orgId}/imports/[0-9a-f-]{36}\\.csv$`));
    expect(data).toMatchObject({ file_name: 'my list.csv', file_size: csv.length });
    expect(await (await env.FILES.get(data.file_key))!.text()).toBe(csv);
  });

  it('takes a body without Content-Length through a multipart upload', async () => {
    const org = await newOrg('up');
    const res = await uploadRaw(org, streamOf(3, 1000), 'chunked.csv');
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { file_key: string; file_size: number } };
    expect(data.file_size).toBe(3000);
    expect((await env.FILES.head(data.file_key))?.size).toBe(3000);
  });

  it('answers 413 for a declared length over 100 MB without reading or storing anything', async () => {
    const org = await newOrg('up');
    const res = await uploadRaw(org, streamOf(1, 10), 'big.csv', { 'content-length': String(IMPORT_MAX_BYTES + 1) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { message: IMPORT_MESSAGES.tooLarge } });
    expect(IMPORT_MESSAGES.tooLarge).toContain('100 MB');
    expect(await keysUnder(`orgs/${org.orgId}/`)).toEqual([]);
  });

  it('counts streamed bytes and stops past the limit, storing nothing (multipart aborted)', async () => {
    const key = `orgs/999/imports/${crypto.randomUUID()}.csv`;
    const over = storeUpload(env.FILES, key, streamOf(20, 1000), null, 15_000);
    await expect(over).rejects.toBeInstanceOf(ApiError);
    await expect(storeUpload(env.FILES, key, streamOf(20, 1000), null, 15_000)).rejects.toMatchObject({ status: 413 });
    expect(await env.FILES.head(key)).toBeNull();
    // At the limit exactly it is fine.
    expect(await storeUpload(env.FILES, key, streamOf(15, 1000), null, 15_000)).toBe(15_000);
    expect((await env.FILES.head(key))?.size).toBe(15_000);
  });

  it('needs a file name and a non-empty body', async () => {
    const org = await newOrg('up');
    const res = await uploadRaw(org, 'a,b\n', '');
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { fields: { file_name: ['This field is required'] } } });
    const empty = await uploadRaw(org, null);
    expect(empty.status).toBe(422);
    expect(await keysUnder(`orgs/${org.orgId}/`)).toEqual([]);
  });
});
