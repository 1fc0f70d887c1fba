import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../web/src/lib/api-error';
import { uploadImportFile } from '../../../web/src/features/import/upload';
import { makeServices, mockFetch } from '../helpers';

/** An XMLHttpRequest stand-in: records what is sent and answers with the next queued response. */
function fakeXhr(answers: { status: number; body: unknown }[]) {
  const sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];
  const create = () => {
    const request = {
      upload: { onprogress: null as ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null },
      onload: null as (() => void) | null,
      onerror: null as (() => void) | null,
      onabort: null as (() => void) | null,
      status: 0,
      responseText: '',
      url: '',
      getAllResponseHeaders: () => 'content-type: application/json\r\nx-version: 1.0.0\r\n',
      headers: {} as Record<string, string>,
      open(_method: string, url: string) {
        request.url = url;
      },
      setRequestHeader(name: string, value: string) {
        request.headers[name.toLowerCase()] = value;
      },
      abort() {
        request.onabort?.();
      },
      send(body: unknown) {
        sent.push({ url: request.url, headers: request.headers, body });
        const answer = answers.shift()!;
        setTimeout(() => {
          request.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
          request.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 10 });
          request.status = answer.status;
          request.responseText = JSON.stringify(answer.body);
          request.onload?.();
        }, 0);
      },
    };
    return request as unknown as XMLHttpRequest;
  };
  return { create, sent };
}

describe('CSV upload (POST /import/upload)', () => {
  it('sends the File itself with the bearer and the file name, and reports progress', async () => {
    const services = makeServices(mockFetch(() => new Response(null)).fn);
    services.session.acceptTokens({ access_token: 'acc-1', refresh_token: 'ref-1', expires_in: 900, auth_type_id: 1 });
    const xhr = fakeXhr([{ status: 201, body: { data: { file_key: 'orgs/1/imports/u.csv', file_name: 'a b.csv', file_size: 12 } } }]);
    const file = new File(['email\na@x.io\n'], 'a b.csv');
    const progress: number[] = [];
    const uploaded = await uploadImportFile(services.client, file, (f) => progress.push(f), { createRequest: xhr.create });
    expect(uploaded.file_key).toBe('orgs/1/imports/u.csv');
    expect(xhr.sent).toHaveLength(1);
    expect(xhr.sent[0].url).toBe('/api/v1/import/upload?file_name=a+b.csv');
    expect(xhr.sent[0].body).toBe(file);
    expect(xhr.sent[0].headers.authorization).toBe('Bearer acc-1');
    expect(xhr.sent[0].headers['x-device']).toMatch(/^relay-console:/);
    expect(progress).toEqual([0, 0.5, 1]);
    expect(xhr.sent[0].headers['content-type']).toBe('text/csv');
  });

  it('renews the session once after a 401 and sends again with the new token', async () => {
    const fetch = mockFetch((call) =>
      call.url.endsWith('/internal-auth/token-refresh')
        ? new Response(JSON.stringify({ access_token: 'acc-2', refresh_token: 'ref-2', expires_in: 900, auth_type_id: 1 }), { status: 200 })
        : new Response(null, { status: 404 }),
    );
    const services = makeServices(fetch.fn);
    services.session.acceptTokens({ access_token: 'acc-1', refresh_token: 'ref-1', expires_in: 900, auth_type_id: 1 });
    const xhr = fakeXhr([
      { status: 401, body: { error: { code: 'unauthorized', message: 'Authentication required' } } },
      { status: 201, body: { data: { file_key: 'k', file_name: 'a.csv', file_size: 1 } } },
    ]);
    await uploadImportFile(services.client, new File(['x'], 'a.csv'), () => undefined, { createRequest: xhr.create });
    expect(xhr.sent.map((s) => s.headers.authorization)).toEqual(['Bearer acc-1', 'Bearer acc-2']);
  });

  it('turns a refusal into an ApiError with the server code, message and fields', async () => {
    const services = makeServices(mockFetch(() => new Response(null)).fn);
    services.session.acceptTokens({ access_token: 'acc-1', refresh_token: 'ref-1', expires_in: 900, auth_type_id: 1 });
    const xhr = fakeXhr([{ status: 413, body: { error: { code: 'bad_request', message: 'The file is larger than 100 MB. Split it into smaller files.' } } }]);
    const failure = await uploadImportFile(services.client, new File(['x'], 'a.csv'), () => undefined, { createRequest: xhr.create }).catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 413, code: 'bad_request', message: 'The file is larger than 100 MB. Split it into smaller files.' });
  });

  it('logs out after a second 401, as every other call does', async () => {
    const fetch = mockFetch((call) =>
      call.url.endsWith('/internal-auth/token-refresh')
        ? new Response(JSON.stringify({ access_token: 'acc-2', refresh_token: 'ref-2', expires_in: 900, auth_type_id: 1 }), { status: 200 })
        : new Response(null, { status: 200 }),
    );
    const services = makeServices(fetch.fn);
    services.session.acceptTokens({ access_token: 'acc-1', refresh_token: 'ref-1', expires_in: 900, auth_type_id: 1 });
    const unauthorized = { status: 401, body: { error: { code: 'unauthorized', message: 'Authentication required' } } };
    const xhr = fakeXhr([unauthorized, unauthorized]);
    const failure = await uploadImportFile(services.client, new File(['x'], 'a.csv'), () => undefined, { createRequest: xhr.create }).catch((e) => e);
    expect(failure).toMatchObject({ status: 401 });
    expect(xhr.sent).toHaveLength(2);
    expect(services.session.accessToken()).toBeNull();
    expect(services.navigate).toHaveBeenCalledWith('/');
  });

  it('reports a network failure as a network error, not a crash', async () => {
    const services = makeServices(mockFetch(() => new Response(null)).fn);
    services.session.acceptTokens({ access_token: 'acc-1', refresh_token: 'ref-1', expires_in: 900, auth_type_id: 1 });
    // A request that never reaches the server: the browser calls onerror.
    const broken = () => {
      const request = { upload: {}, onerror: () => undefined, open() {}, setRequestHeader() {}, send: () => setTimeout(() => request.onerror(), 0) };
      return request as unknown as XMLHttpRequest;
    };
    const failure = await uploadImportFile(services.client, new File(['x'], 'a.csv'), () => undefined, { createRequest: broken }).catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 0, code: 'network_error' });
  });
});
