import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../../src/modules/import/run-import';
import type { LiveEvent } from '../../../src/shared/contracts/import';
import { call } from '../helpers';
import { createImportRow, importCsv, newOrg, upload, type Org } from './support';

/** Opens GET /api/v1/live as the console would; returns the response and, when upgraded, a message queue. */
async function connect(org: Org, init: { query?: string; protocols?: string[]; token?: string } = {}) {
  const headers: Record<string, string> = { upgrade: 'websocket' };
  if (init.protocols) headers['sec-websocket-protocol'] = init.protocols.join(', ');
  const res = await call(org.domain, `/api/v1/live${init.query ?? ''}`, { headers, token: init.token });
  const events: LiveEvent[] = [];
  const waiters: (() => void)[] = [];
  if (res.webSocket) {
    res.webSocket.accept();
    res.webSocket.addEventListener('message', (e) => {
      events.push(JSON.parse(String(e.data)) as LiveEvent);
      for (const w of waiters.splice(0)) w();
    });
  }
  const next = async (type: LiveEvent['type'], timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = events.find((e) => e.type === type);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${type} event`);
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  return { res, events, next };
}

const mapping = [
  { column: 0, target: 'name' },
  { column: 1, target: 'address', address_type: 'email' },
] as const;

describe('GET /api/v1/live', () => {
  it('refuses a missing, wrong or foreign token before upgrading', async () => {
    const org = await newOrg('live');
    const other = await newOrg('live');
    expect((await connect(org)).res.status).toBe(401);
    expect((await connect(org, { query: '?access_token=not-a-token' })).res.status).toBe(401);
    expect((await connect(org, { query: `?access_token=${other.token}` })).res.status).toBe(401);
    expect((await connect(org, { protocols: ['access_token', other.token] })).res.status).toBe(401);
    // The query token is only for WebSocket upgrades, never for ordinary API calls.
    expect((await call(org.domain, `/api/v1/import?access_token=${org.token}`)).status).toBe(401);
    const plain = await call(org.domain, '/api/v1/live', { token: org.token });
    expect(plain.status).toBe(400);
  });

  it('delivers import.finished with the counts when an import ends (token in the query)', async () => {
    const org = await newOrg('live');
    const live = await connect(org, { query: `?access_token=${org.token}` });
    expect(live.res.status).toBe(101);
    const done = await importCsv(org, 'name,email\nAnn,ann@x.io\nBad,nope\n', { skip_first_line: true, mapping: [...mapping] });
    const event = await live.next('import.finished');
    expect(event).toEqual({
      type: 'import.finished',
      import: expect.objectContaining({ id: done.id, status: 'success', created_count: 1, updated_count: 0, rejected_count: 1, file_name: 'contacts.csv' }),
    });
    expect((event as { import: unknown }).import).not.toHaveProperty('rejections');
  });

  it('accepts the token as a subprotocol, answers with the marker, and publishes a finish only once', async () => {
    const org = await newOrg('live');
    const live = await connect(org, { protocols: ['access_token', org.token] });
    expect(live.res.status).toBe(101);
    expect(live.res.headers.get('sec-websocket-protocol')).toBe('access_token');
    const id = await createImportRow(org, await upload(org, 'name,email\n'), [...mapping]);
    await runImport(env, org.orgId, id);
    const event = await live.next('import.finished');
    expect((event as { import: unknown }).import).toMatchObject({ id, status: 'fail', error: 'The file does not contain any rows for import.' });
    await runImport(env, org.orgId, id);
    await new Promise((r) => setTimeout(r, 300));
    expect(live.events.filter((e) => e.type === 'import.finished')).toHaveLength(1);
  });
});
