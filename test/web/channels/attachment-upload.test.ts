import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../web/src/lib/api-error';
import { deleteAttachment, uploadAttachments } from '../../../web/src/features/templates/attachment-api';
import { json, makeServices, mockFetch, signIn, tokenBody } from '../helpers';

// Attachment uploads go around the JSON client (multipart): same headers and bearer, one refresh and retry on
// a 401, and the server's 422 messages kept for the form.

afterEach(() => vi.unstubAllGlobals());

interface Sent {
  url: string;
  headers: Record<string, string>;
  files: { field: string; name: string; text: string }[];
}

function stubUpload(answers: Response[]) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const files: Sent['files'] = [];
      if (init.body instanceof FormData) {
        for (const [field, value] of init.body.entries()) if (typeof value !== 'string') files.push({ field, name: value.name, text: await value.text() });
      }
      sent.push({ url, headers: Object.fromEntries(Object.entries(init.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v])), files });
      return answers.shift()!;
    }),
  );
  return sent;
}

const template = { id: 7, type: 'html', name: 'T', attachments: [{ id: 1, file_name: 'a.txt', size: 3, content_type: 'text/plain' }] };

describe('attachment upload', () => {
  it('sends every file as a `file` part with the bearer and app headers, and returns the template', async () => {
    const services = makeServices(mockFetch(() => json(200, {})).fn);
    signIn(services, { access: 'acc-1' });
    const sent = stubUpload([json(201, { data: template })]);
    const saved = await uploadAttachments(services, 7, [new File(['one'], 'a.txt'), new File(['two'], 'b.pdf')]);
    expect(saved).toEqual(template);
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toBe('/api/v1/template/7/attachment');
    expect(sent[0].headers.authorization).toBe('Bearer acc-1');
    expect(sent[0].headers['x-lang']).toBe('de');
    expect(sent[0].headers['content-type']).toBeUndefined(); // the browser sets the multipart boundary
    expect(sent[0].files).toEqual([
      { field: 'file', name: 'a.txt', text: 'one' },
      { field: 'file', name: 'b.pdf', text: 'two' },
    ]);
  });

  it('refreshes once after a 401 and sends again with the new token', async () => {
    const api = mockFetch((call) => (call.url.endsWith('/internal-auth/token-refresh') ? json(200, tokenBody('acc-2', 'ref-2')) : json(200, {})));
    const services = makeServices(api.fn);
    signIn(services, { access: 'acc-1' });
    const sent = stubUpload([json(401, { error: { code: 'unauthorized', message: 'expired' } }), json(201, { data: template })]);
    await uploadAttachments(services, 7, [new File(['x'], 'a.txt')]);
    expect(sent.map((s) => s.headers.authorization)).toEqual(['Bearer acc-1', 'Bearer acc-2']);
    expect(sent[1].files).toHaveLength(1); // the form is built again for the retry
  });

  it("throws the server's 422 with its field messages", async () => {
    const services = makeServices(mockFetch(() => json(200, {})).fn);
    signIn(services);
    stubUpload([json(422, { error: { code: 'validation_failed', message: 'Some fields are filled incorrectly. Fix the errors and try again.', fields: { attachments: ['File x.exe has an unsupported type'] } } })]);
    const error = await uploadAttachments(services, 7, [new File(['x'], 'x.exe')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).fields).toEqual({ attachments: ['File x.exe has an unsupported type'] });
  });

  it('deletes one attachment through the JSON client', async () => {
    const api = mockFetch(() => json(200, { data: { deleted: 1 } }));
    const services = makeServices(api.fn);
    signIn(services);
    await deleteAttachment(services, 7, 3);
    expect(api.calls.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/v1/template/7/attachment/3' });
  });
});
