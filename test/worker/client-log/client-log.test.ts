import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call, createOrg, signIn } from '../helpers';

const report = { msg: 'TypeError: x is undefined', env: 'production', level: 'ERROR', args: { stack: 'at main.tsx:1', url: '/tag' } };

describe('client error log', () => {
  it('stores a report for the organisation named by X-ORG, with the user when signed in', async () => {
    const { username, orgId, userId } = await createOrg('logs');
    const token = (await signIn('logs', username)).access_token;
    const res = await exports.default.fetch(
      new Request('http://localhost:8787/api/v1/log', {
        method: 'POST',
        headers: { 'x-org': 'logs', 'content-type': 'application/json', authorization: `Bearer ${token}`, 'cf-connecting-ip': '198.51.100.1' },
        body: JSON.stringify(report),
      }),
    );
    expect(res.status).toBe(201);
    const row = await env.DB.prepare('SELECT * FROM client_logs WHERE org_id = ?').bind(orgId).first<Record<string, unknown>>();
    expect(row).toMatchObject({ msg: report.msg, env: 'production', level: 'ERROR', user_id: userId });
    expect(JSON.parse(row!.args as string)).toEqual(report.args);
  });

  it('validates the report', async () => {
    await createOrg('logs2');
    const res = await call('logs2', '/api/v1/log', { method: 'POST', json: { msg: '', level: 'LOUD' } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { fields: { msg: ['This field is required'], env: ['This field is required'] } } });
  });

  it('rate-limits one address to 30 reports a minute', async () => {
    const { orgId } = await createOrg('logs3');
    const send = () => call('logs3', '/api/v1/log', { method: 'POST', json: report, headers: { 'cf-connecting-ip': '198.51.100.2' } });
    for (let i = 0; i < 30; i++) expect((await send()).status).toBe(201);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM client_logs WHERE org_id = ?').bind(orgId).first<{ n: number }>();
    expect(count?.n).toBe(30);
  });
});
