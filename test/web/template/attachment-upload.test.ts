import { describe, expect, it } from 'vitest';
import { deleteAttachment, uploadAttachments } from '../../../web/src/features/template/attachment-api';
import { ApiError } from '../../../web/src/lib/api-error';
import { fieldErrorsAtom } from '../../../web/src/lib/field-errors';
import { json, makeServices, signIn, tokenBody, type TestServices } from '../helpers';

// Attachment uploads go through the same API client as every JSON call (multipart body): same headers and
// bearer, they wait while a refresh runs, one refresh and retry on a 401, logout after a second 401, and the
// server's 422 messages kept for the form.

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  files: { field: string; name: string; text: string }[];
}

/** The services' fetch: token refreshes answer `refresh`, logout 200, every other call the next of `answers`. */
function api(answers: Response[], refresh: () => Response = () => json(200, tokenBody('acc-2', 'ref-2'))) {
  const sent: Sent[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    if (url.endsWith('/internal-auth/token-refresh')) return refresh();
    if (url.endsWith('/internal-auth/logout')) return json(200, {});
    const files: Sent['files'] = [];
    if (init.body instanceof FormData) {
      for (const [field, value] of init.body.entries()) if (typeof value !== 'string') files.push({ field, name: value.name, text: await value.text() });
    }
    const headers = Object.fromEntries(Object.entries(init.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    sent.push({ url, method: init.method ?? 'GET', headers, files });
    return answers.shift() ?? json(500, {});
  };
  return { fetch, sent };
}

const template = { id: 7, type: 'html', name: 'T', attachments: [{ id: 1, file_name: 'a.txt', size: 3, content_type: 'text/plain' }] };

function services(fetch: (url: string, init: RequestInit) => Promise<Response>): TestServices {
  const made = makeServices(fetch);
  signIn(made, { access: 'acc-1' });
  return made;
}

describe('attachment upload', () => {
  it('sends every file as a `file` part with the bearer and app headers, and returns the template', async () => {
    const { fetch, sent } = api([json(201, { data: template })]);
    const saved = await uploadAttachments(services(fetch).client, 7, [new File(['one'], 'a.txt'), new File(['two'], 'b.pdf')]);
    expect(saved).toEqual(template);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ url: '/api/v1/template/7/attachment', method: 'POST' });
    expect(sent[0].headers.authorization).toBe('Bearer acc-1');
    expect(sent[0].headers['x-lang']).toBe('de');
    expect(sent[0].headers['content-type']).toBeUndefined(); // the browser sets the multipart boundary
    expect(sent[0].files).toEqual([
      { field: 'file', name: 'a.txt', text: 'one' },
      { field: 'file', name: 'b.pdf', text: 'two' },
    ]);
  });

  it('refreshes once after a 401 and sends again with the new token and a new form', async () => {
    const { fetch, sent } = api([json(401, { error: { code: 'unauthorized', message: 'expired' } }), json(201, { data: template })]);
    await uploadAttachments(services(fetch).client, 7, [new File(['x'], 'a.txt')]);
    expect(sent.map((s) => s.headers.authorization)).toEqual(['Bearer acc-1', 'Bearer acc-2']);
    expect(sent[1].files).toHaveLength(1);
  });

  it('logs out after a second 401, as every other call does', async () => {
    const unauthorized = () => json(401, { error: { code: 'unauthorized', message: 'expired' } });
    const { fetch, sent } = api([unauthorized(), unauthorized()]);
    const made = services(fetch);
    const error = await uploadAttachments(made.client, 7, [new File(['x'], 'a.txt')]).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(401);
    expect(sent).toHaveLength(2);
    expect(made.session.accessToken()).toBeNull();
    expect(made.navigate).toHaveBeenCalledWith('/');
  });

  it('waits while a token refresh runs, then sends with the refreshed token', async () => {
    let answerRefresh: (response: Response) => void = () => undefined;
    const refreshing = new Promise<Response>((resolve) => (answerRefresh = resolve));
    const { fetch, sent } = api([json(201, { data: template })]);
    const made = services(async (url, init) => (url.endsWith('/internal-auth/token-refresh') ? refreshing : fetch(url, init)));
    const renewal = made.session.renew('acc-1');
    const upload = uploadAttachments(made.client, 7, [new File(['x'], 'a.txt')]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(sent).toHaveLength(0); // held until the refresh has finished
    answerRefresh(json(200, tokenBody('acc-3', 'ref-3')));
    await renewal;
    await upload;
    expect(sent.map((s) => s.headers.authorization)).toEqual(['Bearer acc-3']);
  });

  it("throws the server's 422 and keeps its field messages for the form", async () => {
    const fields = { attachments: ['File x.exe has an unsupported type'] };
    const { fetch } = api([
      json(422, { error: { code: 'validation_failed', message: 'Some fields are filled incorrectly. Fix the errors and try again.', fields } }),
    ]);
    const made = services(fetch);
    const error = await uploadAttachments(made.client, 7, [new File(['x'], 'x.exe')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).fields).toEqual(fields);
    expect(made.store.get(fieldErrorsAtom)['POST /api/v1/template/7/attachment']).toEqual(fields);
  });

  it('deletes one attachment through the JSON client', async () => {
    const { fetch, sent } = api([json(200, { data: { deleted: 1 } })]);
    await deleteAttachment(services(fetch).client, 7, 3);
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/v1/template/7/attachment/3' });
  });
});
