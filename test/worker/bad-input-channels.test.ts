import { describe, expect, it } from 'vitest';
import { call } from './helpers';
import { channels, createTemplate, newOrg } from './channel-helpers';

const GARBAGE: unknown[] = [null, [], 'text', 42, true, { name: ['x'] }, { name: 'x', type: { nested: true } }, { details: 'x', settings: 'x' }, { id: 1e300 }];

describe('channel endpoints never answer malformed input with a 500', () => {
  it('answers 4xx to garbage bodies and ids on every write route, and changes nothing', async () => {
    const o = await newOrg();
    const { smtp, twilio, email } = await channels(o);
    const template = await createTemplate(o, { type: 'email', name: 'T', subject: 's', body: 'b' });
    const routes: [string, string][] = [
      ['POST', '/integration'],
      ['POST', '/integration/smtp'],
      ['PUT', `/integration/${smtp.id}`],
      ['PATCH', `/integration/${smtp.id}/smtp`],
      ['PATCH', `/integration/${smtp.id}/smtp/credentials`],
      ['PATCH', `/integration/${twilio.id}/twilio/credentials`],
      ['POST', '/sender'],
      ['PATCH', `/sender/${email.id}`],
      ['POST', '/template'],
      ['PUT', `/template/${template.id}`],
      ['POST', `/template/${template.id}/preview`],
      ['POST', `/template/${template.id}/test`],
      ['POST', '/campaign'],
      ['POST', '/integration/priorities'],
      ['DELETE', '/message'],
    ];
    for (const [method, path] of routes) {
      for (const json of GARBAGE) {
        const res = await o.api(method, path, json);
        expect(res.status, `${method} ${path} ${JSON.stringify(json)}: ${res.text}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBeLessThan(500);
      }
      const broken = await call(o.org, `/api/v1${path}`, { method, token: o.token, headers: { 'content-type': 'application/json' }, body: '{"name": ' });
      expect(broken.status, `${method} ${path} malformed JSON`).toBe(400);
    }
    for (const path of [
      '/integration/abc',
      '/integration/0/sync',
      '/integration/-1/test',
      '/template/1e3/preview',
      '/template/x/attachment',
      `/template/${template.id}/attachment/zz`,
      '/message/9999999999999999999',
    ]) {
      const get = path.includes('attachment/zz') || path.startsWith('/message') || path === '/integration/abc';
      const res = get ? await o.api('GET', path) : await o.api('POST', path, {});
      expect(res.status, path).toBe(404);
    }
    const multipart = await call(o.org, `/api/v1/template/${template.id}/attachment`, {
      method: 'POST',
      token: o.token,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\nno end',
    });
    expect(multipart.status).toBe(422);
    expect((await o.api('GET', '/integration')).body.meta.total).toBe(2);
    expect((await o.api('GET', `/template/${template.id}`)).body.data).toMatchObject({ name: 'T', attachments: [] });
    expect((await o.api('GET', '/campaign')).body.meta.total).toBe(0);
  });
});

describe('bodies not declared as JSON', () => {
  it('are refused with 415 on the routes that pick their schema from the address too', async () => {
    const o = await newOrg();
    const { smtp } = await channels(o);
    const body = JSON.stringify({ name: 'x', server: 'h', port: 25, user: 'u', password: 'p' });
    for (const [method, path] of [
      ['POST', '/integration/smtp'],
      ['PATCH', `/integration/${smtp.id}/smtp/credentials`],
    ]) {
      const res = await call(o.org, `/api/v1${path}`, { method, token: o.token, body, headers: { 'content-type': 'text/plain' } });
      expect(res.status, `${method} ${path}`).toBe(415);
    }
    expect((await o.api('GET', '/integration')).body.meta.total).toBe(2);
  });
});
